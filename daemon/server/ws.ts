// The WebSocket API `/api/v1` (docs/api.md): calls, subscriptions, arbiter commands behind a token.
// Nothing a client sends can crash the daemon: every frame is read as untrusted data.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { z } from 'zod';
import { type ArbiterAction, QUICKPLAY_ACTIONS } from '../../src/game/actions.ts';
import type { GameResult } from '../../src/game/types.ts';
import { gapDecisionLine } from '../../src/tracker/gap/search.ts';
import type { ArbiterDecision } from '../../src/tracker/types.ts';
import { type Hub, JournalUnavailable, RoundRebuilding } from '../hub.ts';
import { type AuthLimits, AuthLimiter, originAllowed, type Role, roleOf, type Tokens } from './auth.ts';
import type { HealthReport } from './health.ts';
import { CatchUpBudget, Client, type ClientLimits, SendBudget, type Subscription } from './client.ts';
import { correctionProblem } from './correction.ts';
import { Feeds } from './feeds.ts';
import {
  type CallId,
  calibrationFrame,
  type ErrorCode,
  errorParam,
  frame,
  paramError,
  params,
  readRequest,
} from './protocol.ts';
import { boardRows } from './rows.ts';
import { playedGames, RoundJson } from './rounds.ts';
import { tableGameOf } from '../../src/broadcast/index.ts';
import {
  type CallAnswer,
  isTournamentCall,
  type TournamentAccess,
  tournamentCall,
  tournamentCallToken,
} from './tournament-api.ts';

export interface ServerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface WsOptions {
  hub: Hub;
  tokens: Tokens;
  /** Origins besides the daemon's own whose pages may present a token (`https://club.example`). */
  allowedOrigins?: readonly string[];
  /** The whole health report, for the arbiter's `health` call. */
  health?: () => HealthReport;
  /** Host names besides this machine's whose pages count as the daemon's own (a reverse proxy's). */
  allowedHosts?: readonly string[];
  authLimits?: Partial<AuthLimits>;
  log: ServerLog;
  /** Largest frame a client may send (bytes). */
  maxPayload?: number;
  limits?: Partial<ClientLimits>;
  /** WebSocket ping interval; a client that misses two is cut. */
  heartbeatMs?: number;
  now?: () => number;
  /** The tournament the arbiter's tournament calls change. */
  tournament?: TournamentAccess;
  /** Names the versions served (default: a new one each run). */
  epoch?: string;
}

export const WS_PATH = '/api/v1';
/** The most sensor events one `sensor-events` answer carries (about 1 MB of JSON). */
export const SENSOR_EVENTS_MAX = 20_000;

class CallError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export class WsApi {
  readonly clients = new Set<Client>();
  /** Names this run of the daemon: versions given by another run (before a restart) are not trusted. */
  readonly epoch: string;
  private readonly wss: WebSocketServer;
  private readonly feeds: Feeds;
  private readonly hub: Hub;
  private readonly roundJson = new RoundJson();
  private readonly tokens: Tokens;
  private readonly allowedOrigins: readonly string[];
  private readonly allowedHosts: readonly string[];
  private readonly health: (() => HealthReport) | undefined;
  private readonly authLimiter: AuthLimiter;
  private readonly log: ServerLog;
  private readonly limits: ClientLimits;
  private readonly budget: SendBudget;
  private readonly catchUps: CatchUpBudget;
  /** `board/alertId` of decisions on their way to the journal: a second one waits for `revise`. */
  private readonly deciding = new Set<string>();
  private readonly now: () => number;
  private readonly unsubscribeHub: () => void;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly tournament: TournamentAccess | undefined;

  constructor(options: WsOptions) {
    this.hub = options.hub;
    this.tournament = options.tournament;
    this.tokens = options.tokens;
    this.allowedOrigins = options.allowedOrigins ?? [];
    this.allowedHosts = options.allowedHosts ?? [];
    this.health = options.health;
    this.log = options.log;
    this.now = options.now ?? Date.now;
    this.epoch = options.epoch ?? randomUUID().slice(0, 8);
    this.authLimiter = new AuthLimiter(options.authLimits, this.now);
    this.limits = {
      maxBuffered: 4 * 1024 * 1024,
      unsentBudget: 256 * 1024 * 1024,
      maxErrors: 50,
      maxSubscriptions: 64,
      callsPerSecond: 50,
      catchUpBytesPerSecond: 1024 * 1024,
      ...options.limits,
    };
    this.catchUps = new CatchUpBudget(this.limits.catchUpBytesPerSecond, this.now);
    this.budget = new SendBudget(this.limits.unsentBudget, this.clients);
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload ?? 64 * 1024,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.feeds = new Feeds(this.hub, this.now);
    const unsubscribeEvents = this.hub.subscribe((event) => this.feeds.dispatch(event));
    const unsubscribeResets = this.hub.subscribeResets?.((board) =>
      board === undefined ? this.feeds.roundChanged() : this.feeds.boardReset(board),
    );
    this.unsubscribeHub = () => {
      unsubscribeEvents();
      unsubscribeResets?.();
    };
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  /**
   * HTTP upgrade on the shared port: only `/api/v1`. A token in the URL must be right, and is only
   * looked at from the daemon's own pages (or an allowed origin, or no browser at all).
   */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    const address = req.socket.remoteAddress;
    const origin = req.headers.origin;
    const tokensAccepted = originAllowed(origin, req.headers.host, this.allowedOrigins, this.allowedHosts);
    const token = url.searchParams.get('token') || undefined;
    const role =
      url.pathname === WS_PATH || url.pathname === `${WS_PATH}/`
        ? this.urlRole(token, address, tokensAccepted)
        : { refused: '404 Not Found' };
    if (typeof role === 'object') {
      socket.end(`HTTP/1.1 ${role.refused}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const peer = { role, address, origin, tokensAccepted, token };
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, socket, peer));
  }

  /** The role `?token=` grants, or the HTTP status that refuses the upgrade. */
  private urlRole(
    token: string | undefined,
    address: string | undefined,
    tokensAccepted: boolean,
  ): Role | { refused: string } {
    if (token === undefined) return 'spectator';
    if (!tokensAccepted) return { refused: '403 Forbidden' };
    if (!this.authLimiter.allows(address)) return { refused: '429 Too Many Requests' };
    const role = roleOf(this.tokens, token);
    if (!role) {
      this.authLimiter.failed(address);
      return { refused: '401 Unauthorized' };
    }
    this.log.info({ address, role, via: 'url' }, 'arbiter authenticated');
    return role;
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribeHub();
    for (const c of this.clients) c.close(1001, 'daemon stopping');
    this.wss.close();
  }

  private accept(ws: WebSocket, socket: Duplex, peer: ConstructorParameters<typeof Client>[2]): void {
    const { address } = peer;
    const client = new Client(ws, socket, peer, this.limits, this.budget, (c, reason) =>
      this.forget(c, reason),
    );
    this.clients.add(client);
    ws.on('message', (data, isBinary) => this.onMessage(client, data, isBinary));
    ws.on('pong', () => {
      client.alive = true;
    });
    ws.on('error', (e) => this.log.debug({ err: e.message, address }, 'websocket error'));
    ws.on('close', () => {
      client.closed = true;
      this.forget(client, 'closed');
    });
  }

  private forget(client: Client, reason: string): void {
    if (!this.clients.delete(client)) return;
    for (const sub of client.subs.values()) this.feeds.remove(sub);
    client.subs.clear();
    // The arbiter who calibrated is gone: the boards go back to their games.
    for (const cancel of [...client.calibrations.values()]) cancel();
    if (reason !== 'closed') this.log.info({ address: client.address, reason }, 'websocket client dropped');
  }

  private beat(): void {
    for (const c of this.clients) {
      if (!c.alive) {
        c.close(1001, 'no pong');
        continue;
      }
      c.alive = false;
      try {
        c.ws.ping();
      } catch {
        // closing
      }
    }
  }

  private reply(client: Client, id: CallId, param: unknown): void {
    const json = param instanceof RawJson ? param.json : JSON.stringify(param ?? null);
    client.send(frame('call', JSON.stringify(id), json, this.now()));
  }

  private fail(client: Client, id: CallId, code: ErrorCode, message: string): void {
    client.send(frame('error', JSON.stringify(id), errorParam(code, message), this.now()));
    client.countError();
  }

  private onMessage(client: Client, data: RawData, isBinary: boolean): void {
    if (client.closed) return;
    if (isBinary) {
      this.fail(client, null, 'bad-json', 'send JSON text frames');
      return;
    }
    if (!client.takeCall(Date.now())) {
      this.fail(client, null, 'too-many-calls', `at most ${this.limits.callsPerSecond} calls a second`);
      return;
    }
    const req = readRequest(data.toString());
    if (!req.ok) {
      this.fail(client, req.id, 'bad-json', req.message);
      return;
    }
    const { id, call, param } = req.value;
    try {
      const result = this.call(client, id, call, param);
      if (result instanceof Promise) {
        result.then(
          (value) => this.reply(client, id, value),
          (e: unknown) => this.failWith(client, id, e),
        );
      } else if (result !== NO_REPLY) this.reply(client, id, result);
    } catch (e) {
      this.failWith(client, id, e);
    }
  }

  private failWith(client: Client, id: CallId, e: unknown): void {
    if (e instanceof CallError) this.fail(client, id, e.code, e.message);
    else if (e instanceof JournalUnavailable) this.fail(client, id, 'journal-unavailable', e.message);
    else if (e instanceof RoundRebuilding) this.fail(client, id, 'busy', e.message);
    else {
      this.log.warn({ err: (e as Error)?.message, call: id }, 'call failed');
      this.fail(client, id, 'failed', (e as Error)?.message ?? String(e));
    }
  }

  private parse<S extends z.ZodType>(schema: S, param: unknown): z.infer<S> {
    const r = schema.safeParse(param);
    if (!r.success) throw new CallError('bad-param', paramError(r.error));
    return r.data;
  }

  /**
   * A token presented on this connection (`auth` or `param.token`): compared only from an accepted
   * origin and while the address has guesses left; a wrong one counts against the address.
   */
  private authenticate(client: Client, token: string, via: 'auth' | 'param'): Role {
    if (!client.tokensAccepted) {
      throw new CallError(
        'unauthorized',
        `tokens are not accepted from pages at ${client.origin?.slice(0, 200)}`,
      );
    }
    if (client.provenToken !== undefined && token === client.provenToken) return client.role;
    if (!this.authLimiter.allows(client.address)) {
      throw new CallError('rate-limited', 'too many wrong tokens from this address: try again later');
    }
    const role = roleOf(this.tokens, token);
    if (!role) {
      this.authLimiter.failed(client.address);
      throw new CallError('unauthorized', 'bad token');
    }
    if (client.role !== role) this.log.info({ address: client.address, role, via }, 'arbiter authenticated');
    client.role = role;
    client.provenToken = token;
    return role;
  }

  private requireArbiter(client: Client, token: string | undefined): void {
    if (token !== undefined) this.authenticate(client, token, 'param');
    if (!client.isArbiter()) throw new CallError('unauthorized', 'this needs the arbiter or admin token');
  }

  private knownBoard(board: number) {
    const snap = this.hub.snapshot(board);
    if (!snap) throw new CallError('not-found', `no board ${board} in round ${this.hub.round()}`);
    return snap;
  }

  private call(client: Client, callId: CallId, call: string, param: unknown): unknown {
    switch (call) {
      case 'ping':
        return 'pong';
      case 'auth': {
        const { token } = this.parse(params.auth, param);
        return { role: this.authenticate(client, token, 'auth') };
      }
      case 'boards':
        return boardRows(this.hub, client.isArbiter());
      case 'games': {
        const p = this.parse(params.games, param);
        if (p?.board !== undefined) return [this.knownBoard(p.board)];
        const round = p?.round ?? this.hub.round();
        this.mayCatchUp(client);
        const json = this.roundJson.of(round, playedGames(this.hub, round));
        this.catchUps.charge(client.address, json.length);
        return new RawJson(json);
      }
      case 'subscribe':
        return this.subscribe(client, callId, param);
      case 'unsubscribe': {
        const { id } = this.parse(params.unsubscribe, param);
        const key = Client.subKey(id);
        const sub = client.subs.get(key);
        if (!sub) throw new CallError('not-found', `no subscription ${key}`);
        client.subs.delete(key);
        this.feeds.remove(sub);
        return { unsubscribed: id };
      }
      case 'decide':
        return this.decide(client, this.parse(params.decide, param));
      case 'result': {
        const p = this.parse(params.result, param);
        this.requireArbiter(client, p.token);
        // The table's game: the one kept aside once the pieces were set up again after it.
        const snap = tableGameOf(this.knownBoard(p.board));
        let result: GameResult;
        let advantage = p.advantage;
        if (p.result === 'proposed') {
          if (!snap.proposedResult)
            throw new CallError('not-found', `board ${p.board} has no proposed result`);
          result = snap.proposedResult.result;
          advantage = snap.proposedResult.advantage;
        } else result = p.result;
        if (advantage && result !== '1-1')
          throw new CallError('bad-param', 'param.advantage: only a draw (1-1) has an advantage');
        const { hub } = this;
        return hub.setResult(p.board, result, advantage).then(() => {
          // The board's rules may not play draws with advantage: say what was written.
          const board = hub.snapshot(p.board);
          const written = board && tableGameOf(board).advantage;
          return { ok: true, result, ...(written ? { advantage: written } : {}) };
        });
      }
      case 'round': {
        const p = this.parse(params.round, param);
        this.requireArbiter(client, p.token);
        const { hub } = this;
        if (!hub.setRound) throw new CallError('failed', 'this daemon cannot change rounds');
        return hub.setRound(p.round).then(() => {
          this.feeds.roundChanged();
          return { ok: true, round: hub.round() };
        });
      }
      case 'sensor-events': {
        const p = this.parse(params.sensorEvents, param);
        this.requireArbiter(client, p.token);
        this.knownBoard(p.board);
        const events = this.hub.sensorEvents?.(p.board, p.from, p.to, SENSOR_EVENTS_MAX + 1) ?? [];
        const truncated = events.length > SENSOR_EVENTS_MAX;
        const kept = truncated ? events.slice(0, SENSOR_EVENTS_MAX) : events;
        return { board: p.board, round: this.hub.round(), from: p.from, to: p.to, events: kept, truncated };
      }
      case 'info': {
        const p = this.parse(params.info, param);
        this.requireArbiter(client, p.token);
        this.knownBoard(p.board);
        return this.hub.setInfo(p.board, p.info).then(() => ({ ok: true }));
      }
      case 'act': {
        const { board, token, action, ...rest } = this.parse(params.act, param);
        this.requireArbiter(client, token);
        const snap = this.knownBoard(board);
        if (snap.result !== '*')
          throw new CallError('bad-param', `board ${board}'s game is over (${snap.result})`);
        if (QUICKPLAY_ACTIONS.includes(action) && !snap.quickplay?.applies)
          throw new CallError(
            'bad-param',
            `Appendix G does not apply on board ${board}${snap.quickplay?.reason ? ` (${snap.quickplay.reason})` : ' (no time control)'}`,
          );
        // With the board's clock the action set (G.4, G.5): set, or to be set by hand and why.
        return this.hub
          .act(board, { type: action, ...rest } as ArbiterAction)
          .then((answer) => ({ ok: true, ...(answer.clock ? { clock: answer.clock } : {}) }));
      }
      case 'calibrate':
        return this.calibrate(client, callId, this.parse(params.calibrate, param));
      case 'calibrate-cancel': {
        const p = this.parse(params.calibrateCancel, param);
        this.requireArbiter(client, p.token);
        const cancel = client.calibrations.get(p.board);
        if (!cancel)
          throw new CallError('not-found', `board ${p.board} is not being calibrated from this connection`);
        cancel();
        return { ok: true, board: p.board };
      }
      case 'health': {
        const p = this.parse(params.health, param);
        this.requireArbiter(client, p?.token);
        if (!this.health) throw new CallError('failed', 'no health report here');
        return this.health();
      }
      case 'resync': {
        const p = this.parse(params.resync, param);
        this.requireArbiter(client, p?.token);
        if (p?.board !== undefined) this.knownBoard(p.board);
        return { ok: true, boards: this.hub.resync(p?.board) };
      }
      default: {
        const { tournament } = this;
        if (!tournament || !isTournamentCall(call))
          throw new CallError('unknown-call', `unknown call "${call.slice(0, 100)}"`);
        this.requireArbiter(client, tournamentCallToken(call, param));
        const answered = (answer: CallAnswer) => {
          if (!answer.ok) throw new CallError(answer.code, answer.message);
          return answer.value;
        };
        return tournamentCall(tournament, call, param).then(answered);
      }
    }
  }

  /**
   * An arbiter's decision on an alert. A corrected position must be one of the game's variant; an
   * alert already decided (or being decided) is decided again only with `revise: true`, and the
   * journaled decision then says it revises.
   */
  private decide(client: Client, p: z.infer<typeof params.decide>): Promise<{ ok: true }> {
    this.requireArbiter(client, p.token);
    const snap = this.knownBoard(p.board);
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
    const decidedBefore = alert.decision !== undefined || this.deciding.has(key);
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
    this.deciding.add(key);
    return this.hub
      .decide(p.board, decision)
      .finally(() => this.deciding.delete(key))
      .then(() => ({ ok: true as const }));
  }

  /**
   * Starts a calibration of a connected board: answered at once, then its outputs come to this
   * connection as feed messages carrying the call's id, until `saved` or `failed`.
   */
  private calibrate(
    client: Client,
    callId: CallId,
    p: z.infer<typeof params.calibrate>,
  ): { ok: true; board: number } {
    this.requireArbiter(client, p.token);
    this.knownBoard(p.board);
    if (!this.hub.calibrate) throw new CallError('failed', 'this daemon cannot calibrate boards');
    const idJson = JSON.stringify(callId);
    const started = this.hub.calibrate(p.board, (output) => {
      if (output.type === 'saved' || output.type === 'failed') client.calibrations.delete(p.board);
      if (!client.closed) client.send(calibrationFrame(idJson, p.board, output, this.now()));
    });
    if (!started.ok) throw new CallError(started.code, started.message);
    client.calibrations.set(p.board, started.cancel);
    this.log.info({ address: client.address, board: p.board }, 'calibration started');
    return { ok: true, board: p.board };
  }

  /** Answers the call first, then sends the catch-up, then live events follow (all in one tick). */
  private subscribe(client: Client, callId: CallId, param: unknown): typeof NO_REPLY {
    const p = this.parse(params.subscribe, param);
    if (p.feed === 'alerts') this.requireArbiter(client, p.token);
    if (p.feed === 'board') this.knownBoard(p.board);
    const id = p.id ?? callId ?? 0;
    this.mayCatchUp(client);
    // A past round not yet rebuilt refuses here (busy), before the subscription is answered.
    if (p.feed === 'round' && p.round !== undefined && p.round !== this.hub.round())
      playedGames(this.hub, p.round);
    const key = Client.subKey(id);
    const old = client.subs.get(key);
    if (old) this.feeds.remove(old);
    else if (client.subs.size >= this.limits.maxSubscriptions) {
      throw new CallError('too-many-subscriptions', `at most ${this.limits.maxSubscriptions} subscriptions`);
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
    this.reply(client, callId, { subscription: id, epoch: this.epoch });
    // `since` from another run of the daemon means nothing here: send snapshots.
    const trusted = p.feed !== 'alerts' && (p.epoch === undefined || p.epoch === this.epoch);
    const before = client.sentBytes;
    this.feeds.catchUp(sub, trusted ? p.since : undefined);
    this.catchUps.charge(client.address, client.sentBytes - before);
    this.feeds.add(sub);
    return NO_REPLY;
  }

  /** Refuses a whole round or snapshot to an address that has had its share for now. */
  private mayCatchUp(client: Client): void {
    if (!this.catchUps.allows(client.address))
      throw new CallError(
        'rate-limited',
        `at most ${this.limits.catchUpBytesPerSecond} bytes of catch-up a second per address: subscribe once and keep the subscription, or pass \`since\``,
      );
  }
}

const NO_REPLY = Symbol('no-reply');

/** An answer already serialised (shared by many clients). */
class RawJson {
  readonly json: string;
  constructor(json: string) {
    this.json = json;
  }
}
