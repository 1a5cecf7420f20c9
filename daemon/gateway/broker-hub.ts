// The read side of the Hub, built from what the daemons publish on the broker: each board's
// retained state (its snapshot) and its recent events, so the HTTP and WebSocket code of the
// daemon serves spectators from a gateway as it is. No journal: like a lila-ws room, a board keeps
// a short history, and a gap is closed by the state the daemon publishes after every batch of
// events. It has no arbiter side: arbiter calls belong to the daemon that holds the board, and the
// gateway's servers refuse them.
import type { GameEvent, GameSnapshot } from '../../src/game/types.ts';
import type { BoardSummary, HubReader } from '../hub.ts';
import { DEFAULTS } from '../config/schema.ts';
import { setRecent } from '../keyed.ts';
import type { DaemonState, EventMessage, StateMessage } from '../server/mqtt-topics.ts';

/** Events kept per board for `since` (as a daemon's game record keeps them). */
const KEPT_EVENTS = 200;

/**
 * What the gateway holds at most, whatever is published: events waiting per board (the oldest go
 * first; the daemon is asked for them when their state comes), boards with early events, rounds
 * kept (the lowest go first) and daemons known (the least recently heard go first).
 */
export const GATEWAY_BOUNDS = {
  waitingEvents: 2_000,
  earlyBoards: 256,
  rounds: 100,
  daemons: 256,
} as const;

/** An event's size as it came (its JSON), counted once. */
const sizes = new WeakMap<GameEvent, number>();
const sizeOf = (event: GameEvent): number => {
  let size = sizes.get(event);
  if (size === undefined) {
    size = JSON.stringify(event).length;
    sizes.set(event, size);
  }
  return size;
};
const bytesOf = (events: Iterable<GameEvent>): number => {
  let n = 0;
  for (const e of events) n += sizeOf(e);
  return n;
};

interface BoardFeed {
  round: number;
  source: string;
  snapshot: GameSnapshot;
  /** The events up to the snapshot's version, contiguous, the newest last. */
  history: GameEvent[];
  /** Events newer than the snapshot, by version, waiting for the state that follows them. */
  pending: Map<number, GameEvent>;
  /** A state that came with events missing, kept while they are asked of the daemon. */
  waiting?: StateMessage;
}

/** Asks the daemon (its HTTP/WebSocket address) for one board's events after `version`. */
export type EventFetcher = (api: string, board: number, version: number) => Promise<GameEvent[] | undefined>;

export interface GapLog {
  warn(obj: object, msg?: string): void;
}

export class BrokerHub implements HubReader {
  private readonly feeds = new Map<number, BoardFeed>();
  /** Events that came before their board's first state. */
  private readonly early = new Map<number, Map<number, GameEvent>>();
  /** Every round's games as last seen, by board. */
  private readonly rounds = new Map<number, Map<number, GameSnapshot>>();
  private readonly daemons = new Map<string, DaemonState>();
  private readonly listeners = new Set<(event: GameEvent) => void>();
  private readonly resets = new Set<(board?: number) => void>();

  constructor(
    private readonly log?: GapLog,
    private readonly fetchEvents?: EventFetcher,
    /**
     * Bytes of events a board may hold waiting (for its state, or before its first one) and kept for
     * `since`: a game's events between two states are a few kilobytes, so this is only ever reached
     * by a publisher that pads them — counts alone let 1,200 events of a megabyte each in.
     */
    private readonly boardBytes: number = DEFAULTS.gatewayBoardBytes,
  ) {}

  /**
   * The HTTP address of the daemon that holds `board`: an online one, else the last that said so.
   * A broker that shuts down sends every will, so a live daemon reads offline until its detail
   * connection is back — which may be after its events. Asking a daemon that is gone just fails.
   */
  private apiOf(board: number): string | undefined {
    const holders = [...this.daemons.values()].filter((d) => d.api && d.boards?.includes(board));
    return (holders.find((d) => d.state === 'online') ?? holders[0])?.api;
  }

  // ——— what the broker says ———

  daemon(daemon: string, state: DaemonState): void {
    const round = this.round();
    // A will says only offline: what the daemon announced before stays known (its address, boards).
    const before = this.daemons.get(daemon);
    const known = state.state === 'offline' && before ? { ...before, state: 'offline' as const } : state;
    setRecent(this.daemons, daemon, known, GATEWAY_BOUNDS.daemons);
    if (this.round() !== round) this.reset();
  }

  event(message: EventMessage): void {
    const { board, event } = message;
    const feed = this.feeds.get(board);
    if (feed && message.round < feed.round) return;
    if (feed && message.round === feed.round && event.version <= feed.snapshot.version) return;
    const waiting = feed && message.round === feed.round ? feed.pending : this.earlyOf(board);
    const size = sizeOf(event);
    if (size > this.boardBytes) {
      this.log?.warn(
        { board, version: event.version, bytes: size },
        'gateway: an event over the byte budget dropped',
      );
      return;
    }
    waiting.set(event.version, event);
    // The oldest go first: past the count, or past the bytes a board may hold waiting.
    let held = bytesOf(waiting.values());
    while (waiting.size > GATEWAY_BOUNDS.waitingEvents || held > this.boardBytes) {
      const oldest = Math.min(...waiting.keys());
      held -= sizeOf(waiting.get(oldest)!);
      waiting.delete(oldest);
    }
  }

  state(message: StateMessage): void {
    const { board, round, snapshot } = message;
    const feed = this.feeds.get(board);
    if (feed && (round < feed.round || (round === feed.round && snapshot.version <= feed.snapshot.version)))
      return;
    this.keepGame(round, snapshot);
    if (!feed || round !== feed.round) {
      // A board first seen, or a new round: the snapshot is the start; nothing before it is told.
      const early = this.early.get(board) ?? new Map();
      this.early.delete(board);
      const pending = new Map([...early].filter(([v]) => v > snapshot.version));
      this.feeds.set(board, { round, source: message.source, snapshot, history: [], pending });
      // A spectator may follow it already (it resumed here before the board's state came).
      this.reset(board);
      return;
    }
    if (feed.waiting) {
      feed.waiting = message;
      return;
    }
    this.advance(feed, message, true);
  }

  /** Tells the events up to the state's version; asks the daemon for missing ones once. */
  private advance(feed: BoardFeed, message: StateMessage, mayAsk: boolean): void {
    const { board, snapshot } = message;
    const from = feed.snapshot.version;
    const arrived = [...feed.pending.keys()].filter((v) => v <= snapshot.version).sort((a, b) => a - b);
    const complete =
      arrived.length === snapshot.version - from && arrived.every((v, i) => v === from + 1 + i);
    const api = this.apiOf(board);
    if (!complete && mayAsk && api && this.fetchEvents) {
      // Published while this gateway was not subscribed (the broker was restarted): the daemon has them.
      feed.waiting = message;
      const done = (events: GameEvent[] | undefined) => {
        for (const e of events ?? []) if (e.version > feed.snapshot.version) feed.pending.set(e.version, e);
        const latest = feed.waiting!;
        feed.waiting = undefined;
        if (this.feeds.get(board) === feed) this.advance(feed, latest, false);
      };
      this.fetchEvents(api, board, from).then(done, () => done(undefined));
      return;
    }
    const events = arrived.map((v) => feed.pending.get(v)!);
    for (const v of arrived) feed.pending.delete(v);
    feed.snapshot = snapshot;
    feed.source = message.source;
    if (!complete) {
      // Events the broker lost (an outage past what the daemon keeps): `since` before it gets the snapshot.
      this.log?.warn(
        { board, from, to: snapshot.version, arrived: arrived.length },
        'gateway: events missing',
      );
      feed.history = [];
      this.reset(board);
      return;
    }
    feed.history = feed.history.concat(events).slice(-KEPT_EVENTS);
    // Kept for `since` within the board's bytes too: a spectator further behind gets the snapshot.
    let kept = bytesOf(feed.history);
    let cut = 0;
    while (kept > this.boardBytes && cut < feed.history.length) kept -= sizeOf(feed.history[cut++]);
    if (cut > 0) feed.history = feed.history.slice(cut);
    for (const event of events) this.tell(event);
  }

  // ——— Hub ———

  boards(): BoardSummary[] {
    const round = this.round();
    return [...this.feeds.entries()]
      .filter(([, f]) => f.round === round)
      .sort(([a], [b]) => a - b)
      .map(([board, f]) => ({
        board,
        round,
        source: f.source,
        ...(f.snapshot.serial !== undefined ? { serial: f.snapshot.serial } : {}),
        state: f.snapshot.state,
        version: f.snapshot.version,
      }));
  }

  /** The latest round an online daemon announces (else the latest round seen). */
  round(): number {
    const announced = [...this.daemons.values()].flatMap((b) =>
      b.state === 'online' && b.round !== undefined ? [b.round] : [],
    );
    const seen = announced.length > 0 ? announced : [...this.rounds.keys()];
    return seen.length > 0 ? Math.max(...seen) : 1;
  }

  snapshot(board: number): GameSnapshot | undefined {
    const feed = this.feeds.get(board);
    return feed && feed.round === this.round() ? feed.snapshot : undefined;
  }

  hasRound(round: number): boolean {
    return this.rounds.has(round);
  }

  games(round: number): GameSnapshot[] {
    const games = this.rounds.get(round);
    return games ? [...games.entries()].sort(([a], [b]) => a - b).map(([, g]) => g) : [];
  }

  since(board: number, version: number): GameEvent[] | undefined {
    const feed = this.feeds.get(board);
    if (!feed) return undefined;
    const current = feed.snapshot.version;
    // A spectator ahead of this gateway (it came from a faster one) waits for what it has not seen.
    if (version >= current) return [];
    const first = feed.history[0]?.version;
    if (first === undefined || version + 1 < first) return undefined;
    return feed.history.slice(version + 1 - first);
  }

  subscribe(listener: (event: GameEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeResets(listener: (board?: number) => void): () => void {
    this.resets.add(listener);
    return () => this.resets.delete(listener);
  }

  private earlyOf(board: number): Map<number, GameEvent> {
    let early = this.early.get(board);
    if (!early) {
      early = new Map();
      this.early.set(board, early);
      if (this.early.size > GATEWAY_BOUNDS.earlyBoards) this.early.delete(this.early.keys().next().value!);
    }
    return early;
  }

  private keepGame(round: number, snapshot: GameSnapshot): void {
    let games = this.rounds.get(round);
    if (!games) {
      games = new Map();
      this.rounds.set(round, games);
      if (this.rounds.size > GATEWAY_BOUNDS.rounds) this.rounds.delete(Math.min(...this.rounds.keys()));
    }
    games.set(snapshot.info.board, snapshot);
  }

  private tell(event: GameEvent): void {
    for (const listener of this.listeners) this.guarded(() => listener(event));
  }

  /** A board (or, without one, the round) moved on without its events being told. */
  private reset(board?: number): void {
    for (const listener of this.resets) this.guarded(() => listener(board));
  }

  private guarded(call: () => void): void {
    try {
      call();
    } catch (e) {
      this.log?.warn({ err: (e as Error).message }, 'gateway: a subscriber failed');
    }
  }
}
