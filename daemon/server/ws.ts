// The WebSocket API `/api/v1` (docs/api.md): calls, subscriptions, arbiter commands behind a token.
// Nothing a client sends can crash the daemon: every frame is read as untrusted data.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { GameSnapshot } from '../../src/game/types.ts';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { z } from 'zod';
import { DEFAULTS } from '../config/schema.ts';
import { type ArbiterHub, arbiterSide, type HubReader, JournalUnavailable, RoundRebuilding } from '../hub.ts';
import { type AuthLimits, AuthLimiter, originAllowed, type Tokens } from './auth.ts';
import type { HealthReport } from './health.ts';
import { CatchUpBudget, Client, type ClientLimits, SendBudget } from './client.ts';
import {
  CALLS,
  type CallName,
  type CallServer,
  isCallName,
  NO_REPLY,
  RawJson,
  tournamentCallOf,
} from './calls.ts';
import { Gate } from './gate.ts';
import { Feeds } from './feeds.ts';
import {
  type CallId,
  type ErrorCode,
  errorParam,
  frame,
  paramError,
  readRequest,
  CallError,
} from './protocol.ts';
import { RoundJson, SnapshotJson } from '../views/rounds.ts';
import type { TournamentAccess } from '../tournament/access.ts';

export interface ServerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface WsOptions {
  hub: HubReader;
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

export class WsApi implements CallServer {
  readonly clients = new Set<Client>();
  /** Names this run of the daemon: versions given by another run (before a restart) are not trusted. */
  readonly epoch: string;
  private readonly wss: WebSocketServer;
  readonly feeds: Feeds;
  readonly hub: HubReader;
  readonly arbiter: ArbiterHub | undefined;
  readonly roundJson = new RoundJson();
  readonly snapshotJson = new SnapshotJson();
  private readonly allowedOrigins: readonly string[];
  private readonly allowedHosts: readonly string[];
  readonly health: (() => HealthReport) | undefined;
  readonly gate: Gate;
  readonly log: ServerLog;
  readonly limits: ClientLimits;
  private readonly budget: SendBudget;
  readonly catchUps: CatchUpBudget;
  /** `board/alertId` of decisions on their way to the journal: a second one waits for `revise`. */
  readonly deciding = new Set<string>();
  readonly now: () => number;
  private readonly unsubscribeHub: () => void;
  private readonly heartbeat: NodeJS.Timeout;
  readonly tournament: TournamentAccess | undefined;

  constructor(options: WsOptions) {
    this.hub = options.hub;
    this.arbiter = arbiterSide(options.hub);
    this.tournament = options.tournament;
    this.allowedOrigins = options.allowedOrigins ?? [];
    this.allowedHosts = options.allowedHosts ?? [];
    this.health = options.health;
    this.log = options.log;
    this.now = options.now ?? Date.now;
    this.epoch = options.epoch ?? randomUUID().slice(0, 8);
    this.gate = new Gate(options.tokens, new AuthLimiter(options.authLimits, this.now), this.log);
    this.limits = {
      maxBuffered: DEFAULTS.clientBuffer,
      unsentBudget: DEFAULTS.unsentBytes,
      maxErrors: 50,
      maxSubscriptions: 64,
      callsPerSecond: 50,
      catchUpBytesPerSecond: DEFAULTS.catchUpBytesPerSecond,
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
    this.feeds = new Feeds(this.hub, this.now, this.snapshotJson);
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
        ? this.gate.urlRole(token, address, tokensAccepted)
        : { refused: '404 Not Found' };
    if (typeof role === 'object') {
      socket.end(`HTTP/1.1 ${role.refused}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const peer = { role, address, origin, tokensAccepted, token };
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, socket, peer));
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

  reply(client: Client, id: CallId, param: unknown): void {
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
    if (!client.takeCall(this.now())) {
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
      const result = this.dispatch(client, id, call, param);
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

  /** The call's entry of the table (calls.ts), or one of the arbiter's tournament calls. */
  private dispatch(client: Client, callId: CallId, call: string, param: unknown): unknown {
    if (isCallName(call)) {
      const spec: (typeof CALLS)[CallName] = CALLS[call];
      const p = this.parse(spec.schema, param);
      if (spec.role === 'arbiter') this.gate.requireArbiter(client, tokenOf(p));
      return (spec.handle as (...a: unknown[]) => unknown)(this, client, callId, p);
    }
    return tournamentCallOf(this, client, call, param);
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

  knownBoard(board: number): GameSnapshot {
    const snap = this.hub.snapshot(board);
    if (!snap) throw new CallError('not-found', `no board ${board} in round ${this.hub.round()}`);
    return snap;
  }

  mayCatchUp(client: Client): void {
    if (!this.catchUps.allows(client.address))
      throw new CallError(
        'rate-limited',
        `at most ${this.limits.catchUpBytesPerSecond} bytes of catch-up a second per address: subscribe once and keep the subscription, or pass \`since\``,
      );
  }
}

/** The arbiter's token a call's param carries, if any. */
function tokenOf(param: unknown): string | undefined {
  const token = (param as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : undefined;
}
