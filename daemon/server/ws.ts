// The WebSocket API `/api/v1` (docs/api.md): calls, subscriptions, arbiter commands behind a token.
// Nothing a client sends can crash the daemon: every frame is read as untrusted data.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { z } from 'zod';
import type { GameResult } from '../../src/game/types.ts';
import { gapDecisionLine } from '../../src/tracker/gap-search.ts';
import type { ArbiterDecision } from '../../src/tracker/types.ts';
import type { Hub } from '../hub.ts';
import { connectionRole, hasTokens, isLoopback, roleOf, type Tokens } from './auth.ts';
import { Client, type ClientLimits, type Subscription } from './client.ts';
import { Feeds } from './feeds.ts';
import {
  type CallId,
  type ErrorCode,
  errorParam,
  frame,
  paramError,
  params,
  readRequest,
} from './protocol.ts';
import { boardRows } from './rows.ts';
import { RoundGames, RoundJson } from './rounds.ts';

export interface ServerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface WsOptions {
  hub: Hub;
  /** Shared with HTTP: past rounds are rebuilt at most every few seconds. */
  rounds?: RoundGames;
  tokens: Tokens;
  log: ServerLog;
  /** Largest frame a client may send (bytes). */
  maxPayload?: number;
  limits?: Partial<ClientLimits>;
  /** WebSocket ping interval; a client that misses two is cut. */
  heartbeatMs?: number;
  now?: () => number;
}

export const WS_PATH = '/api/v1';

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
  readonly epoch = randomUUID().slice(0, 8);
  private readonly wss: WebSocketServer;
  private readonly feeds: Feeds;
  private readonly hub: Hub;
  private readonly rounds: RoundGames;
  private readonly roundJson = new RoundJson();
  private readonly tokens: Tokens;
  private readonly log: ServerLog;
  private readonly limits: ClientLimits;
  private readonly now: () => number;
  private readonly unsubscribeHub: () => void;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(options: WsOptions) {
    this.hub = options.hub;
    this.rounds = options.rounds ?? new RoundGames(options.hub);
    this.tokens = options.tokens;
    this.log = options.log;
    this.now = options.now ?? Date.now;
    this.limits = {
      maxBuffered: 4 * 1024 * 1024,
      maxErrors: 50,
      maxSubscriptions: 64,
      callsPerSecond: 50,
      ...options.limits,
    };
    this.wss = new WebSocketServer({
      noServer: true,
      maxPayload: options.maxPayload ?? 64 * 1024,
      perMessageDeflate: false,
      clientTracking: false,
    });
    this.feeds = new Feeds(this.hub, this.rounds, this.now);
    this.unsubscribeHub = this.hub.subscribe((event) => this.feeds.dispatch(event));
    this.heartbeat = setInterval(() => this.beat(), options.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  /** HTTP upgrade on the shared port: only `/api/v1`, and a token in the URL must be right. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== WS_PATH && url.pathname !== `${WS_PATH}/`) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const address = req.socket.remoteAddress;
    const role = connectionRole(this.tokens, url.searchParams.get('token'), address);
    if (role === 'refused') {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, socket, role, address));
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.unsubscribeHub();
    for (const c of this.clients) c.close(1001, 'daemon stopping');
    this.wss.close();
  }

  private accept(ws: WebSocket, socket: Duplex, role: Client['role'], address: string | undefined): void {
    const client = new Client(ws, socket, role, address, this.limits, (c, reason) => this.forget(c, reason));
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

  private requireArbiter(client: Client, token: string | undefined): void {
    if (token !== undefined) {
      const role = roleOf(this.tokens, token);
      if (!role && !(client.isArbiter() && !hasTokens(this.tokens)))
        throw new CallError('unauthorized', 'bad token');
      if (role) client.role = role;
    }
    if (!client.isArbiter()) {
      throw new CallError(
        'unauthorized',
        hasTokens(this.tokens)
          ? 'this needs the arbiter or admin token'
          : 'arbiter calls are only allowed from this computer',
      );
    }
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
        const role =
          roleOf(this.tokens, token) ??
          (!hasTokens(this.tokens) && isLoopback(client.address) ? 'arbiter' : undefined);
        if (!role) throw new CallError('unauthorized', 'bad token');
        client.role = role;
        return { role };
      }
      case 'boards':
        return boardRows(this.hub);
      case 'games': {
        const p = this.parse(params.games, param);
        if (p?.board !== undefined) return [this.knownBoard(p.board)];
        const round = p?.round ?? this.hub.round();
        return new RawJson(this.roundJson.of(round, this.rounds.of(round)));
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
      case 'decide': {
        const p = this.parse(params.decide, param);
        this.requireArbiter(client, p.token);
        const snap = this.knownBoard(p.board);
        const alert = snap.alerts.find((a) => a.id === p.alertId);
        if (!alert) throw new CallError('not-found', `no alert ${p.alertId} on board ${p.board}`);
        const { board: _board, token: _token, ...decision } = p;
        const decided = { ...decision, alertId: p.alertId } as ArbiterDecision;
        // A gap's line is checked against the board before it is journaled.
        if (decided.kind === 'line' || decided.kind === 'moves') {
          const line = gapDecisionLine(alert, decided, snap.info.variant);
          if (!line.ok) throw new CallError('bad-param', line.error.message);
        }
        return this.hub.decide(p.board, decided).then(() => ({ ok: true }));
      }
      case 'result': {
        const p = this.parse(params.result, param);
        this.requireArbiter(client, p.token);
        const snap = this.knownBoard(p.board);
        let result: GameResult;
        if (p.result === 'proposed') {
          if (!snap.proposedResult)
            throw new CallError('not-found', `board ${p.board} has no proposed result`);
          result = snap.proposedResult.result;
        } else result = p.result;
        return this.hub.setResult(p.board, result).then(() => ({ ok: true, result }));
      }
      case 'info': {
        const p = this.parse(params.info, param);
        this.requireArbiter(client, p.token);
        this.knownBoard(p.board);
        return this.hub.setInfo(p.board, p.info).then(() => ({ ok: true }));
      }
      default:
        throw new CallError('unknown-call', `unknown call "${call.slice(0, 100)}"`);
    }
  }

  /** Answers the call first, then sends the catch-up, then live events follow (all in one tick). */
  private subscribe(client: Client, callId: CallId, param: unknown): typeof NO_REPLY {
    const p = this.parse(params.subscribe, param);
    if (p.feed === 'alerts') this.requireArbiter(client, p.token);
    if (p.feed === 'board') this.knownBoard(p.board);
    const id = p.id ?? callId ?? 0;
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
    this.feeds.catchUp(sub, trusted ? p.since : undefined);
    this.feeds.add(sub);
    return NO_REPLY;
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
