// One WebSocket connection: its role, its subscriptions, and a bounded send buffer — a client that
// does not read is dropped instead of holding memory or slowing the others.
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import { setRecent } from '../keyed.ts';
import { addressKey, type Role } from './auth.ts';
import type { CallId } from './protocol.ts';

export type FeedKind = 'board' | 'round' | 'alerts';

export interface Subscription {
  client: Client;
  id: string | number;
  /** `JSON.stringify(id)`: the key in the client's map and the text put in each feed frame. */
  idJson: string;
  feed: FeedKind;
  board?: number;
  /** A round number, or 'current' (follows the daemon's current round). */
  round?: number | 'current';
  /**
   * Per board, the version the catch-up (missed events or snapshot) brought the client to: a live
   * event at or below it is not sent again. Cleared by the first newer event, so it stays small.
   */
  sent: Map<number, number>;
}

export interface ClientLimits {
  /** Bytes waiting to be sent beyond which the client is dropped. */
  maxBuffered: number;
  /** Bytes waiting for all clients together: past it the clients furthest behind are dropped. */
  unsentBudget: number;
  /** Error answers after which the connection is closed. */
  maxErrors: number;
  maxSubscriptions: number;
  /** Calls a connection may make per second (a burst of as many is allowed). */
  callsPerSecond: number;
  /**
   * Bytes of whole rounds and snapshots (`subscribe` catch-ups, `games`) one client address may be
   * sent per second, across its connections; a burst of four seconds' worth is allowed.
   */
  catchUpBytesPerSecond: number;
}

/**
 * Catch-up bytes per client address (IPv6 per /64): a subscription's catch-up sends the whole round
 * (~100 KB at 64 boards), so one host re-subscribing over many connections could otherwise fill
 * the uplink and the event loop. A catch-up is allowed while the address is under its burst and
 * then charged what it sent; the charge drains at the rate.
 */
export class CatchUpBudget {
  private readonly byAddress = new Map<string, { used: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number,
    private readonly addresses = 10_000,
  ) {}

  allows(address: string | undefined): boolean {
    return this.used(addressKey(address)) < this.perSecond * 4;
  }

  charge(address: string | undefined, bytes: number): void {
    const key = addressKey(address);
    setRecent(this.byAddress, key, { used: this.used(key) + bytes, at: this.now() }, this.addresses);
  }

  private used(key: string): number {
    const entry = this.byAddress.get(key);
    if (!entry) return 0;
    return Math.max(0, entry.used - ((this.now() - entry.at) / 1000) * this.perSecond);
  }
}

export class Client {
  readonly ws: WebSocket;
  /** The upgraded TCP socket under `ws`: feed frames framed once for everyone are written here. */
  private readonly socket: Duplex;
  readonly address: string | undefined;
  /** The connection comes from the daemon's own pages, an allowed origin or no browser at all. */
  readonly tokensAccepted: boolean;
  readonly origin: string | undefined;
  role: Role;
  /**
   * The token this connection proved: sent again with each call, it is accepted without counting
   * against the address, so guesses from elsewhere on it cannot lock out an arbiter at work.
   */
  provenToken: string | undefined;
  readonly subs = new Map<string, Subscription>();
  /** Boards this connection is calibrating, and how to cancel each (ended when it goes away). */
  readonly calibrations = new Map<number, () => void>();
  errors = 0;
  alive = true;
  /** Bytes of text frames sent with `send` (calls' answers and catch-ups). */
  sentBytes = 0;
  /** Token bucket for calls: refilled at `callsPerSecond`, one token per call. */
  private tokens: number;
  private refilledAt: number;
  closed = false;
  /** Feed frames of this turn, written together at its end (sendFramed). */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private readonly limits: ClientLimits;
  private readonly budget: SendBudget;
  private readonly onDrop: (client: Client, reason: string) => void;

  constructor(
    ws: WebSocket,
    socket: Duplex,
    peer: {
      role: Role;
      address: string | undefined;
      origin: string | undefined;
      tokensAccepted: boolean;
      token?: string;
    },
    limits: ClientLimits,
    budget: SendBudget,
    onDrop: (client: Client, reason: string) => void,
  ) {
    this.ws = ws;
    this.socket = socket;
    this.role = peer.role;
    this.provenToken = peer.token;
    this.address = peer.address;
    this.origin = peer.origin;
    this.tokensAccepted = peer.tokensAccepted;
    this.limits = limits;
    this.budget = budget;
    this.onDrop = onDrop;
    this.tokens = limits.callsPerSecond;
    this.refilledAt = Date.now();
  }

  /** Whether one more call is allowed now (flooding costs the others CPU). */
  takeCall(now: number): boolean {
    const rate = this.limits.callsPerSecond;
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Sends one text frame unless the client is too far behind (then it is dropped). */
  send(data: string | Buffer): boolean {
    if (!this.writable()) return false;
    this.writeHeld(); // frames held this turn go first: order is kept
    this.ws.send(data, { binary: false });
    const bytes = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    this.sentBytes += bytes;
    this.budget.add(bytes);
    return true;
  }

  /**
   * Sends a complete WebSocket frame (wire.ts `textFrame`) straight on the socket. Safe beside
   * `ws.send` because permessage-deflate is off: ws's sender then writes synchronously and never
   * holds frames back, so frames cannot be reordered or interleaved. The frames of one turn are
   * held and written together when its synchronous work is done: a round feed gets many boards'
   * events per turn, and a write each cost more than the rest of their handling.
   */
  sendFramed(wire: Buffer): boolean {
    if (!this.writable()) return false;
    if (this.held.length === 0) queueMicrotask(() => this.writeHeld());
    this.held.push(wire);
    this.heldBytes += wire.length;
    return true;
  }

  /** Bytes given to this client and not yet handed to the kernel. */
  unsent(): number {
    return this.ws.bufferedAmount + this.heldBytes;
  }

  private writeHeld(): void {
    if (this.held.length === 0) return;
    const frames = this.held;
    const bytes = this.heldBytes;
    this.held = [];
    this.heldBytes = 0;
    if (this.closed || this.ws.readyState !== 1) return;
    this.socket.write(frames.length === 1 ? frames[0] : Buffer.concat(frames));
    this.budget.add(bytes);
  }

  private writable(): boolean {
    if (this.closed || this.ws.readyState !== 1) return false;
    if (this.ws.bufferedAmount > this.limits.maxBuffered) {
      this.close(1008, 'send buffer exceeded');
      return false;
    }
    return true;
  }

  /** An error answer; too many of them close the connection. */
  countError(): void {
    if (++this.errors >= this.limits.maxErrors) this.close(1008, 'too many errors');
  }

  /** Closes with a reason; a peer that does not read cannot take the close frame, so cut it soon. */
  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.onDrop(this, reason);
    try {
      this.ws.close(code, reason);
    } catch {
      // already closing
    }
    setTimeout(() => this.ws.terminate(), 1000).unref();
  }

  /** Drops the connection at once: what waits for it is freed now, not after a close handshake. */
  cut(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.held = [];
    this.heldBytes = 0;
    this.onDrop(this, reason);
    this.ws.terminate();
  }

  isArbiter(): boolean {
    return this.role === 'arbiter' || this.role === 'admin';
  }

  static subKey(id: CallId | string | number): string {
    return JSON.stringify(id);
  }
}

/**
 * One budget of unsent bytes for all clients: many slow readers each under their own limit could
 * still hold the daemon's memory. Bytes handed to sockets are added to an estimate as they go;
 * only when it passes the budget are the clients counted (sockets drain meanwhile), and if they
 * are over it, the clients with the most waiting are cut first — the slowest readers, not the ones
 * that happened to be sent to last.
 */
export class SendBudget {
  /** Unsent bytes at the last count, plus everything handed to sockets since. */
  private estimate = 0;

  constructor(
    private readonly limit: number,
    private readonly clients: Iterable<Client>,
  ) {}

  /** `bytes` were just handed to a client's socket. */
  add(bytes: number): void {
    this.estimate += bytes;
    if (this.estimate > this.limit) this.enforce();
  }

  private enforce(): void {
    let total = 0;
    for (const c of this.clients) total += c.unsent();
    if (total > this.limit) {
      const furthestBehind = [...this.clients].sort((a, b) => b.unsent() - a.unsent());
      for (const c of furthestBehind) {
        if (total <= this.limit) break;
        total -= c.unsent();
        c.cut('send budget exceeded');
      }
    }
    this.estimate = total;
  }
}
