// The WebSocket API's calls (docs/api.md), one table as lila-ws keeps its messages: each call's
// param schema, who may make it, and what it does. ws.ts reads a request, finds its call here,
// parses the param, checks the role, and sends the answer; a domain refusal is a CallError.
import type { z } from 'zod';
import { tableGameOf } from '../../src/broadcast/index.ts';
import { type ArbiterAction, QUICKPLAY_ACTIONS } from '../../src/game/actions.ts';
import type { GameResult, GameSnapshot } from '../../src/game/types.ts';
import { gapDecisionLine } from '../../src/tracker/gap/answer.ts';
import type { ArbiterDecision } from '../../src/tracker/types.ts';
import type { ArbiterHub, HubReader } from '../hub.ts';
import type { Gate } from './gate.ts';
import { type CatchUpBudget, Client, type ClientLimits, type Subscription } from './client.ts';
import { correctionProblem } from './correction.ts';
import type { Feeds } from './feeds.ts';
import type { HealthReport } from './health.ts';
import { CallError, type CallId, calibrationFrame, params } from './protocol.ts';
import { boardRows } from './rows.ts';
import { playedGames, type RoundJson, type SnapshotJson } from '../views/rounds.ts';
import { type CallAnswer, isTournamentCall, tournamentCall, tournamentCallToken } from './tournament-api.ts';
import type { TournamentAccess } from '../tournament/access.ts';

/** The most sensor events one `sensor-events` answer carries (about 1 MB of JSON). */
export const SENSOR_EVENTS_MAX = 20_000;

/** A handler that answered itself (a subscription answers before its catch-up). */
export const NO_REPLY = Symbol('no-reply');

/** An answer already serialised (shared by many clients). */
export class RawJson {
  readonly json: string;
  constructor(json: string) {
    this.json = json;
  }
}

/** What the calls work with: the server's parts and its checks (WsApi). */
export interface CallServer {
  readonly hub: HubReader;
  /** The arbiter's side of the hub: a gateway's servers have none. */
  readonly arbiter: ArbiterHub | undefined;
  readonly feeds: Feeds;
  readonly epoch: string;
  readonly limits: ClientLimits;
  readonly catchUps: CatchUpBudget;
  readonly roundJson: RoundJson;
  readonly snapshotJson: SnapshotJson;
  readonly health: (() => HealthReport) | undefined;
  /** `board/alertId` of decisions on their way to the journal: a second one waits for `revise`. */
  readonly deciding: Set<string>;
  readonly log: { info(obj: object, msg?: string): void };
  now(): number;
  readonly gate: Gate;
  readonly tournament: TournamentAccess | undefined;
  knownBoard(board: number): GameSnapshot;
  /** Refuses a whole round or snapshot to an address that has had its share for now. */
  mayCatchUp(client: Client): void;
  reply(client: Client, id: CallId, value: unknown): void;
}

interface Call<S extends z.ZodType> {
  schema: S;
  /** `arbiter`: only an arbiter's connection, or one whose param carries the arbiter's `token`. */
  role: 'anyone' | 'arbiter';
  handle(server: CallServer, client: Client, callId: CallId, p: z.infer<S>): unknown;
}

const call = <S extends z.ZodType>(c: Call<S>): Call<S> => c;

/** The hub's arbiter side, or the refusal of a server that has none (a gateway). */
function arbiterOf(server: CallServer): ArbiterHub {
  if (!server.arbiter)
    throw new CallError('failed', 'this server only shows the games: make arbiter calls on the daemon');
  return server.arbiter;
}

export const CALLS = {
  ping: call({ schema: params.none, role: 'anyone', handle: () => 'pong' }),
  auth: call({
    schema: params.auth,
    role: 'anyone',
    handle: (server, client, _, { token }) => ({ role: server.gate.authenticate(client, token, 'auth') }),
  }),
  boards: call({
    schema: params.none,
    role: 'anyone',
    handle: (server, client) => {
      // Every answer a spectator can ask for is paid from its address's budget.
      server.mayCatchUp(client);
      const json = JSON.stringify(boardRows(server.hub, client.isArbiter()));
      server.catchUps.charge(client.address, json.length);
      return new RawJson(json);
    },
  }),
  games: call({
    schema: params.games,
    role: 'anyone',
    handle: (server, client, _, p) => {
      server.mayCatchUp(client);
      const round = p?.round ?? server.hub.round();
      const json =
        p?.board !== undefined
          ? `[${server.snapshotJson.of(server.knownBoard(p.board))}]`
          : server.roundJson.of(round, playedGames(server.hub, round));
      server.catchUps.charge(client.address, json.length);
      return new RawJson(json);
    },
  }),
  subscribe: call({ schema: params.subscribe, role: 'anyone', handle: subscribe }),
  unsubscribe: call({
    schema: params.unsubscribe,
    role: 'anyone',
    handle: (server, client, _, { id }) => {
      const key = Client.subKey(id);
      const sub = client.subs.get(key);
      if (!sub) throw new CallError('not-found', `no subscription ${key}`);
      client.subs.delete(key);
      server.feeds.remove(sub);
      return { unsubscribed: id };
    },
  }),
  decide: call({ schema: params.decide, role: 'arbiter', handle: decide }),
  result: call({ schema: params.result, role: 'arbiter', handle: result }),
  round: call({
    schema: params.round,
    role: 'arbiter',
    handle: (server, _client, _, p) => {
      const { hub, feeds } = server;
      const arbiter = arbiterOf(server);
      if (!arbiter.setRound) throw new CallError('failed', 'this daemon cannot change rounds');
      return arbiter.setRound(p.round).then(() => {
        feeds.roundChanged();
        return { ok: true, round: hub.round() };
      });
    },
  }),
  'sensor-events': call({
    schema: params.sensorEvents,
    role: 'arbiter',
    handle: (server, _client, _, p) => {
      server.knownBoard(p.board);
      const events = arbiterOf(server).sensorEvents?.(p.board, p.from, p.to, SENSOR_EVENTS_MAX + 1) ?? [];
      const truncated = events.length > SENSOR_EVENTS_MAX;
      const kept = truncated ? events.slice(0, SENSOR_EVENTS_MAX) : events;
      return { board: p.board, round: server.hub.round(), from: p.from, to: p.to, events: kept, truncated };
    },
  }),
  info: call({
    schema: params.info,
    role: 'arbiter',
    handle: (server, _client, _, p) => {
      server.knownBoard(p.board);
      return arbiterOf(server)
        .setInfo(p.board, p.info)
        .then(() => ({ ok: true }));
    },
  }),
  act: call({ schema: params.act, role: 'arbiter', handle: act }),
  calibrate: call({ schema: params.calibrate, role: 'arbiter', handle: calibrate }),
  'calibrate-cancel': call({
    schema: params.calibrateCancel,
    role: 'arbiter',
    handle: (_server, client, _, p) => {
      const cancel = client.calibrations.get(p.board);
      if (!cancel)
        throw new CallError('not-found', `board ${p.board} is not being calibrated from this connection`);
      cancel();
      return { ok: true, board: p.board };
    },
  }),
  health: call({
    schema: params.health,
    role: 'arbiter',
    handle: ({ health }) => {
      if (!health) throw new CallError('failed', 'no health report here');
      return health();
    },
  }),
  resync: call({
    schema: params.resync,
    role: 'arbiter',
    handle: (server, _client, _, p) => {
      if (p?.board !== undefined) server.knownBoard(p.board);
      return { ok: true, boards: arbiterOf(server).resync(p?.board) };
    },
  }),
} as const;

export type CallName = keyof typeof CALLS;

export const isCallName = (name: string): name is CallName => Object.hasOwn(CALLS, name);

/**
 * A draw's result as the arbiter writes it, or the one the engine proposes (`proposed`); the
 * table's game: the one kept aside once the pieces were set up again after it.
 */
function result(server: CallServer, _client: Client, _: CallId, p: z.infer<typeof params.result>) {
  const snap = tableGameOf(server.knownBoard(p.board));
  let written: GameResult;
  let advantage = p.advantage;
  if (p.result === 'proposed') {
    if (!snap.proposedResult) throw new CallError('not-found', `board ${p.board} has no proposed result`);
    written = snap.proposedResult.result;
    advantage = snap.proposedResult.advantage;
  } else written = p.result;
  if (advantage && written !== '1-1')
    throw new CallError('bad-param', 'param.advantage: only a draw (1-1) has an advantage');
  const { hub } = server;
  return arbiterOf(server)
    .setResult(p.board, written, advantage)
    .then(() => {
      // The board's rules may not play draws with advantage: say what was written.
      const board = hub.snapshot(p.board);
      const kept = board && tableGameOf(board).advantage;
      return { ok: true, result: written, ...(kept ? { advantage: kept } : {}) };
    });
}

/** An arbiter's action on a game under way (Appendix G's only where it applies). */
function act(server: CallServer, _client: Client, _: CallId, p: z.infer<typeof params.act>) {
  const { board, token: _token, action, ...rest } = p;
  const snap = server.knownBoard(board);
  if (snap.result !== '*') throw new CallError('bad-param', `board ${board}'s game is over (${snap.result})`);
  if (QUICKPLAY_ACTIONS.includes(action) && !snap.quickplay?.applies)
    throw new CallError(
      'bad-param',
      `Appendix G does not apply on board ${board}${snap.quickplay?.reason ? ` (${snap.quickplay.reason})` : ' (no time control)'}`,
    );
  // With the board's clock the action set (G.4, G.5): set, or to be set by hand and why.
  return arbiterOf(server)
    .act(board, { type: action, ...rest } as ArbiterAction)
    .then((answer) => ({ ok: true, ...(answer.clock ? { clock: answer.clock } : {}) }));
}

/**
 * An arbiter's decision on an alert. A corrected position must be one of the game's variant; an
 * alert already decided (or being decided) is decided again only with `revise: true`, and the
 * journaled decision then says it revises.
 */
function decide(
  server: CallServer,
  _client: Client,
  _: CallId,
  p: z.infer<typeof params.decide>,
): Promise<{ ok: true }> {
  const snap = server.knownBoard(p.board);
  const alert = snap.alerts.find((a) => a.id === p.alertId);
  if (!alert) throw new CallError('not-found', `no alert ${p.alertId} on board ${p.board}`);
  if (p.kind === 'corrected') {
    const problem = correctionProblem(p.fen, snap.info.variant);
    if (problem) throw new CallError('bad-fen', `param.fen: ${problem}`);
  }
  // A gap's line is checked against the board before it is journaled.
  if (p.kind === 'line' || p.kind === 'moves') {
    const line = gapDecisionLine(alert, p, snap.info.variant);
    if (!line.ok) throw new CallError('bad-param', line.error.message);
  }
  const key = `${p.board}/${p.alertId}`;
  const decidedBefore = alert.decision !== undefined || server.deciding.has(key);
  // A gap's line is recorded once; what is wrong with it after that is a correction.
  const mayRevise = (p.kind === 'stands' || p.kind === 'corrected') && p.revise === true;
  if (decidedBefore && !mayRevise) {
    throw new CallError(
      'already-decided',
      `alert ${p.alertId} is already decided (${alert.decision?.kind ?? 'being decided'})${
        p.kind === 'line' || p.kind === 'moves' ? '' : '; send revise: true to change it'
      }`,
    );
  }
  const revises = decidedBefore ? { revises: true as const } : {};
  const decision: ArbiterDecision =
    p.kind === 'stands'
      ? { alertId: p.alertId, kind: 'stands', ...revises }
      : p.kind === 'corrected'
        ? { alertId: p.alertId, kind: 'corrected', fen: p.fen, ...revises }
        : p.kind === 'line'
          ? { alertId: p.alertId, kind: 'line', line: p.line }
          : { alertId: p.alertId, kind: 'moves', pdn: p.pdn };
  const arbiter = arbiterOf(server);
  server.deciding.add(key);
  return arbiter
    .decide(p.board, decision)
    .finally(() => server.deciding.delete(key))
    .then(() => ({ ok: true as const }));
}

/**
 * Starts a calibration of a connected board: answered at once, then its outputs come to this
 * connection as feed messages carrying the call's id, until `saved` or `failed`.
 */
function calibrate(
  server: CallServer,
  client: Client,
  callId: CallId,
  p: z.infer<typeof params.calibrate>,
): { ok: true; board: number } {
  server.knownBoard(p.board);
  const arbiter = arbiterOf(server);
  if (!arbiter.calibrate) throw new CallError('failed', 'this daemon cannot calibrate boards');
  const idJson = JSON.stringify(callId);
  const started = arbiter.calibrate(p.board, (output) => {
    if (output.type === 'saved' || output.type === 'failed') client.calibrations.delete(p.board);
    if (!client.closed) client.send(calibrationFrame(idJson, p.board, output, server.now()));
  });
  if (!started.ok) throw new CallError(started.code, started.message);
  client.calibrations.set(p.board, started.cancel);
  server.log.info({ address: client.address, board: p.board }, 'calibration started');
  return { ok: true, board: p.board };
}

/** Answers the call first, then sends the catch-up, then live events follow (all in one tick). */
function subscribe(
  server: CallServer,
  client: Client,
  callId: CallId,
  p: z.infer<typeof params.subscribe>,
): typeof NO_REPLY {
  if (p.feed === 'alerts') server.gate.requireArbiter(client, p.token);
  if (p.feed === 'board') server.knownBoard(p.board);
  const id = p.id ?? callId ?? 0;
  server.mayCatchUp(client);
  // A past round not yet rebuilt refuses here (busy), before the subscription is answered.
  if (p.feed === 'round' && p.round !== undefined && p.round !== server.hub.round())
    playedGames(server.hub, p.round);
  const { feeds, limits } = server;
  const key = Client.subKey(id);
  const old = client.subs.get(key);
  if (old) feeds.remove(old);
  else if (client.subs.size >= limits.maxSubscriptions) {
    throw new CallError('too-many-subscriptions', `at most ${limits.maxSubscriptions} subscriptions`);
  }
  const sub: Subscription = {
    client,
    id,
    idJson: key,
    feed: p.feed,
    ...(p.feed === 'board' ? { board: p.board } : {}),
    ...(p.feed === 'round' ? { round: p.round ?? 'current' } : {}),
    sent: new Map(),
  };
  client.subs.set(key, sub);
  server.reply(client, callId, { subscription: id, epoch: server.epoch });
  // `since` from another run of the daemon means nothing here: send snapshots.
  const trusted = p.feed !== 'alerts' && (p.epoch === undefined || p.epoch === server.epoch);
  const before = client.sentBytes;
  feeds.catchUp(sub, trusted ? p.since : undefined);
  server.catchUps.charge(client.address, client.sentBytes - before);
  feeds.add(sub);
  return NO_REPLY;
}

/** A call not in the table: one of the arbiter's tournament calls (./tournament-api.ts), or unknown. */
export function tournamentCallOf(
  server: CallServer,
  client: Client,
  call: string,
  param: unknown,
): Promise<unknown> {
  const { tournament } = server;
  if (!tournament || !isTournamentCall(call))
    throw new CallError('unknown-call', `unknown call "${call.slice(0, 100)}"`);
  server.gate.requireArbiter(client, tournamentCallToken(call, param));
  const answered = (answer: CallAnswer) => {
    if (!answer.ok) throw new CallError(answer.code, answer.message);
    return answer.value;
  };
  return tournamentCall(tournament, call, param).then(answered);
}
