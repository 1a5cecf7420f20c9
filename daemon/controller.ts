// The controller: boards in. One connection per configured source, one tracker + game record per
// board, every input journaled before it is applied, games rebuilt from the journal on start.
// Implements the Hub that the HTTP / WebSocket / MQTT side reads and calls.
import type { BoardEvent, Side } from '../firmware-protocol/events.ts';
import type { GameEvent, GameInfo, GameResult, GameSnapshot } from '../src/game/types.ts';
import type { BoardState } from '../src/game/types.ts';
import type { ArbiterDecision } from '../src/tracker/types.ts';
import type { BoardSetup, LoadedConfig } from './config/index.ts';
import type { BoardSummary, Hub } from './hub.ts';
import {
  type AppendRequest,
  BoardGame,
  type DerivedRecord,
  derivedRecord,
  type Journal,
  type JournalInput,
  type ReplaySettings,
  replayRound,
  type TrackerFactory,
} from './journal/index.ts';
import { everyAfterIo } from './after-io.ts';
import { HoldUpClock } from './hold-up-clock.ts';
import { type Logger, silentLogger } from './log.ts';
import {
  BoardConnection,
  type BoardTransport,
  boardTransport,
  type ConnectionTiming,
  type TransportDeps,
} from './transport/index.ts';

export type ControllerConfig = Pick<
  LoadedConfig,
  'setups' | 'round' | 'variant' | 'event' | 'site' | 'date' | 'timeControl' | 'drawRule' | 'autoResult'
>;

export interface ControllerOptions {
  config: ControllerConfig;
  journal: Journal;
  createTracker: TrackerFactory;
  transport?: TransportDeps;
  timing?: Partial<ConnectionTiming>;
  /** Tick period: how often boards with recent activity get a journaled `tick` (default 100 ms). */
  tickMs?: number;
  /**
   * Boards quiet for longer than this get no more ticks, after one past it (default 6000 ms: past
   * the tracker's stall time).
   */
  tickWindowMs?: number;
  logger?: Logger;
  /**
   * Simulated boards playing N× faster than people get an input clock running N× faster too, so
   * the tracker's human-scale timings still hold (default 1).
   */
  timeScale?: number;
  /** Stamps inputs (tests); default: inputClock(timeScale) starting after the journal's last entry. */
  now?: () => number;
}

/**
 * The clock that stamps inputs: runs `scale` times faster than the wall clock (1 for real boards)
 * and never goes back — not after a restart (it starts after the journal's last entry), nor when
 * the system clock is stepped back — so the tracker always sees time moving forward.
 */
export function inputClock(scale: number, after = 0, wall: () => number = Date.now): () => number {
  const wall0 = wall();
  const base = Math.max(wall0, after + 1);
  let last = base;
  return () => {
    last = Math.max(last, Math.round(base + (wall() - wall0) * scale));
    return last;
  };
}

interface Slot {
  readonly setup: BoardSetup;
  game: BoardGame;
  /** Last board event other than a tick (ms). */
  lastEvent: number;
  lastTick: number;
  /** Time of the board's latest input. */
  lastT: number;
  /** Board time = input clock − offset: time while the board is not observed does not count. */
  offset: number;
  /** The board is away (lost, or the daemon was down): its next input resumes right after lastT. */
  gap: boolean;
  state: BoardState;
  /** The connection currently feeding this board. */
  feeder?: BoardConnection;
}

/**
 * A gap counts as this short pause: longer than the tracker's settle time, so what the hands did
 * before the gap settles on its own and the dump after it reads as a fresh picture; far shorter
 * than its stall time, so a piece in the air at the gap is no irregularity.
 */
const RESUME_PAUSE_MS = 500;

/** Board states in which the daemon is watching the board (so time passes for its tracker). */
const WATCHED: ReadonlySet<BoardState> = new Set(['active', 'silent']);
/** Groups of boards ticked in turn (see start). */
const TICK_PHASES = 10;

const today = (t: number): string => new Date(t).toISOString().slice(0, 10).replaceAll('-', '.');

export class Controller implements Hub {
  private readonly slots = new Map<number, Slot>();
  private readonly connections: { conn: BoardConnection; setup: BoardSetup; board?: number }[] = [];
  private readonly listeners = new Set<(event: GameEvent) => void>();
  private readonly bindings: Map<string, number>;
  private readonly log: Logger;
  /** Stops the ticks (see start). */
  private stopTicks: (() => void) | undefined;
  private tickTurn = 0;
  /** Stamps inputs, minding pauses of the daemon itself (see HoldUpClock). */
  private readonly clock: HoldUpClock;
  private queue: { slot: Slot; input: JournalInput; t: number; serial?: string; raw?: Uint8Array }[] = [];
  private flushScheduled = false;
  private settledWaiters: (() => void)[] = [];
  /** Outputs to store as rows with the next commit. */
  private derived: DerivedRecord[] = [];
  private readonly pastRounds = new Map<number, GameSnapshot[]>();

  constructor(private readonly options: ControllerOptions) {
    this.log = options.logger ?? silentLogger();
    const { config, journal } = options;
    this.bindings = journal.bindings(config.round);
    const { createTracker: _, ...round } = this.settings();
    journal.setRoundSettings(config.round, round);
    const started = performance.now();
    for (const setup of config.setups) {
      this.slots.set(setup.board, {
        setup,
        game: this.newGame(config.round, setup),
        lastEvent: 0,
        lastTick: 0,
        lastT: 0,
        offset: 0,
        gap: false,
        state: 'connecting',
      });
    }
    // Outputs a crash kept from reaching the derived table (stored after their inputs) are stored now.
    const stored = journal.derivedVersions(config.round);
    let last = 0;
    journal.forEachRoundInput(config.round, (board, input, t) => {
      if (t > last) last = t;
      const slot = this.slots.get(board);
      if (!slot) return;
      for (const event of slot.game.apply(input, t))
        if (event.version > (stored.get(board) ?? 0)) this.keepDerived(event);
      slot.lastT = t;
    });
    // Input time starts after the journal's last entry, whatever the system clock says.
    const scale = options.timeScale ?? 1;
    this.clock = new HoldUpClock(options.now ?? inputClock(scale, last), scale);
    const now = this.clock.now();
    for (const slot of this.slots.values()) {
      // The daemon was away since the last entry: that gap is not board time.
      slot.gap = slot.lastT > 0;
      slot.state = slot.game.record.snapshot().state;
      this.syncInfo(slot, slot.gap ? slot.lastT : now);
    }
    this.flush();
    this.log.info(
      { boards: this.slots.size, round: config.round, ms: Math.round(performance.now() - started) },
      'games rebuilt from the journal',
    );
  }

  /** Opens every board's connection and starts the tick timer. */
  start(): void {
    for (const setup of this.options.config.setups) {
      let transport: BoardTransport;
      try {
        transport = boardTransport(setup.source, setup.protocol, setup.options, this.options.transport);
      } catch (e) {
        this.log.error(
          { board: setup.board, source: setup.source.text, err: e },
          'cannot use this board source',
        );
        continue;
      }
      const entry: { conn: BoardConnection; setup: BoardSetup; board?: number } = {
        setup,
        conn: undefined as unknown as BoardConnection,
      };
      entry.conn = new BoardConnection({
        source: setup.source.text,
        ...transport,
        timing: this.options.timing,
        eventTime: () => this.boardTime(this.slots.get(entry.board ?? setup.board)!),
        events: {
          onState: (state, detail) => this.connectionState(entry, state, detail.serial, detail.reason),
          onEvents: (serial, events, raw) => this.boardEvents(entry, serial, events, raw),
          onLog: (level, message, fields) => this.log[level]({ board: setup.board, ...fields }, message),
        },
      });
      this.connections.push(entry);
      entry.conn.start();
    }
    const tickMs = this.options.tickMs ?? 100;
    this.clock.start();
    // Time passes for the trackers only after the loop has read what the boards sent meanwhile: a
    // tick run first would see a settle window or a stall time expire that the events already
    // waiting in the sockets would have kept open.
    // The boards take their ticks in TICK_PHASES groups, one group a turn, so each board still gets
    // one every tickMs: ticks decide moves (a press's grace, a settle window), and two hundred
    // boards deciding in one turn kept every event that arrived meanwhile waiting for milliseconds.
    this.stopTicks = everyAfterIo(() => this.tick(this.tickTurn++ % TICK_PHASES), tickMs / TICK_PHASES);
  }

  stop(): void {
    this.stopTicks?.();
    this.stopTicks = undefined;
    this.clock.stop();
    for (const { conn } of this.connections) conn.stop();
    this.connections.length = 0;
    this.flush();
    if (this.derived.length > 0) this.commit([]);
  }

  // ——— inputs ———

  /** The round's rules, the same for live games and replays. */
  private settings(): ReplaySettings {
    const { config, createTracker } = this.options;
    return {
      variant: config.variant,
      createTracker,
      drawProfile: { profile: config.drawRule.profile, advantageDraw: config.drawRule.advantage },
      autoResult: config.autoResult,
    };
  }

  private newGame(round: number, setup: BoardSetup): BoardGame {
    const { variant, ...rest } = this.settings();
    return new BoardGame({ ...rest, info: { board: setup.board, round, variant } });
  }

  /**
   * The time that stamps a board's inputs. While a board is away (unplugged, or the daemon down)
   * nobody watches it, so that time must not count for the tracker — a man lifted just before the
   * plug was pulled is no 5.4.7 stall five seconds later; the full dump on reconnect tells what
   * happened meanwhile. So a board's time resumes right after its last input when it comes back.
   */
  private boardTime(slot: Slot): number {
    const now = this.clock.now();
    if (slot.gap) {
      slot.gap = false;
      slot.offset = now - (slot.lastT + RESUME_PAUSE_MS);
    }
    return Math.max(slot.lastT, now - slot.offset);
  }

  /** Journal first, then apply, then tell the subscribers. */
  private input(slot: Slot, input: JournalInput, t: number, serial?: string, raw?: Uint8Array): void {
    slot.lastT = Math.max(slot.lastT, t);
    this.queue.push({ slot, input, t, serial, raw });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /**
   * Group commit: the inputs of one turn of the event loop (often many boards' events) are
   * journaled in one transaction — one WAL write instead of one per event — and only then applied
   * and published, in order. Nothing is applied that is not on disk.
   */
  private flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      const { round } = this.options.config;
      if (
        this.commit(
          batch.map((q) => ({
            round,
            board: q.slot.setup.board,
            t: q.t,
            input: q.input,
            serial: q.serial,
            raw: q.raw,
          })),
        )
      ) {
        for (const q of batch) for (const event of this.apply(q.slot, q.input, q.t)) this.publish(event);
      }
      // Not durable, so not applied: the boards' next dump brings their positions back.
    }
    const waiting = this.settledWaiters;
    this.settledWaiters = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * One transaction: the inputs, and the outputs derived since the last one (they ride along
   * instead of costing a commit of their own; a restart stores any a crash kept out).
   */
  private commit(inputs: AppendRequest[]): boolean {
    const derived = this.derived;
    this.derived = [];
    try {
      this.options.journal.appendMany(inputs, derived);
      return true;
    } catch (e) {
      this.log.error({ err: e, inputs: inputs.length }, 'journal write failed');
      this.derived = derived.concat(this.derived);
      return false;
    }
  }

  /** A game output worth keeping as a row (derived.ts), stored with the next commit. */
  private keepDerived(event: GameEvent): void {
    const record = derivedRecord(this.options.config.round, event);
    if (record) this.derived.push(record);
  }

  /** Resolves once every input queued so far is journaled and applied. */
  private settled(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  private apply(slot: Slot, input: JournalInput, t: number): GameEvent[] {
    try {
      return slot.game.apply(input, t);
    } catch (e) {
      // A bug in the core must not take the hall down; the input is journaled for the bug report.
      this.log.error({ board: slot.setup.board, err: e, input }, 'applying an input failed');
      return [];
    }
  }

  private publish(event: GameEvent): void {
    this.keepDerived(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (e) {
        this.log.error({ err: e }, 'a subscriber failed');
      }
    }
  }

  /** Game info from the config (players, event…), journaled only when it differs from the game's. */
  private syncInfo(slot: Slot, t: number): void {
    const { config } = this.options;
    const { setup } = slot;
    const current = slot.game.record.snapshot().info;
    const wanted: Partial<GameInfo> = {
      event: config.event,
      site: config.site,
      date: config.date ?? current.date ?? today(t),
      white: setup.white,
      black: setup.black,
      whiteFmjdId: setup.whiteFmjdId,
      blackFmjdId: setup.blackFmjdId,
      timeControl: config.timeControl,
    };
    const change = Object.fromEntries(
      Object.entries(wanted).filter(([k, v]) => v !== undefined && current[k as keyof GameInfo] !== v),
    ) as Partial<GameInfo>;
    if (Object.keys(change).length > 0) this.input(slot, { kind: 'info', info: change }, t);
  }

  /** The board a serial number belongs to: remembered, configured, or the source's own board. */
  private route(setup: BoardSetup, serial: string): number {
    const known = this.bindings.get(serial);
    if (known !== undefined && this.slots.has(known)) return known;
    const configured = this.options.config.setups.find((s) => s.serial === serial);
    const board = configured?.board ?? setup.board;
    this.bindings.set(serial, board);
    this.options.journal.bind(this.options.config.round, serial, board);
    return board;
  }

  private connectionState(
    entry: { conn: BoardConnection; setup: BoardSetup; board?: number },
    state: BoardState,
    serial: string | undefined,
    reason: string | undefined,
  ): void {
    if (state === 'active' && serial !== undefined) {
      const board = this.route(entry.setup, serial);
      if (entry.board !== undefined && entry.board !== board)
        this.setBoardState(entry.board, 'lost', entry.conn);
      entry.board = board;
      const slot = this.slots.get(board)!;
      slot.feeder = entry.conn;
    }
    const board = entry.board ?? entry.setup.board;
    this.log[state === 'active' ? 'info' : 'warn'](
      { board, serial, source: entry.setup.source.text, reason },
      `board ${state}`,
    );
    this.setBoardState(board, state, entry.conn, serial);
  }

  private setBoardState(board: number, state: BoardState, from: BoardConnection, serial?: string): void {
    const slot = this.slots.get(board);
    if (!slot) return;
    // Only the connection feeding a board speaks for its state (a replugged board moved elsewhere).
    if (slot.feeder && slot.feeder !== from) return;
    const snap = slot.game.record.snapshot();
    if (snap.state === state && (serial === undefined || snap.serial === serial)) return;
    // Going away does not end the gap (no board time passes until the board is watched again).
    const t = slot.gap && !WATCHED.has(state) ? slot.lastT : this.boardTime(slot);
    this.input(slot, { kind: 'state', state, ...(serial !== undefined ? { serial } : {}) }, t);
    slot.state = state;
    if (state === 'lost') slot.gap = true;
  }

  private boardEvents(
    entry: { conn: BoardConnection; setup: BoardSetup; board?: number },
    serial: string,
    events: BoardEvent[],
    raw: Uint8Array,
  ): void {
    const board = entry.board ?? this.route(entry.setup, serial);
    const slot = this.slots.get(board);
    if (!slot) return;
    events.forEach((stamped, i) => {
      // Never back in a board's time (events stamped before a replugged board was routed here).
      const event = stamped.t < slot.lastT ? { ...stamped, t: slot.lastT } : stamped;
      if (event.type !== 'tick') slot.lastEvent = event.t;
      this.input(slot, { kind: 'event', event }, event.t, serial, i === 0 ? raw : undefined);
    });
  }

  /**
   * Time passing, so settle windows and stall times expire without a board event. A tick is the
   * daemon's own input, so it may be applied before it is journaled: only ticks that decided
   * something are journaled (and published after that). A tick that changed nothing needs no
   * replay: the tracker takes each decision at its due time, whichever later input triggers it, so
   * the journal replays the same outputs in the same order — with a tenth of the rows.
   */
  private tick(phase: number): void {
    // Inputs still queued are older than this tick: they go first.
    this.flush();
    const windowMs = this.options.tickWindowMs ?? 6000;
    const tickMs = this.options.tickMs ?? 100;
    const { round } = this.options.config;
    const decided: { input: AppendRequest; events: GameEvent[] }[] = [];
    for (const slot of this.slots.values()) {
      // A board nobody watches gets no time (see boardTime).
      if (slot.setup.board % TICK_PHASES !== phase || slot.gap || !WATCHED.has(slot.state)) continue;
      const t = this.boardTime(slot);
      // Ticks stop once one has come after the window: that one took every decision still due, even
      // when the board's time leapt past the window at once (the daemon held up, see HoldUpClock).
      if (slot.lastTick - slot.lastEvent > windowMs || t - slot.lastTick < tickMs) continue;
      slot.lastTick = t;
      const input: JournalInput = { kind: 'event', event: { t, type: 'tick' } };
      const events = this.apply(slot, input, t);
      if (events.length === 0) continue;
      slot.lastT = Math.max(slot.lastT, t);
      decided.push({ input: { round, board: slot.setup.board, t, input }, events });
    }
    // One commit for every board's decisive tick (and outputs waiting for a commit), then publish.
    if (decided.length > 0 || this.derived.length > 0) this.commit(decided.map((d) => d.input));
    for (const { events } of decided) for (const event of events) this.publish(event);
  }

  // ——— Hub ———

  boards(): BoardSummary[] {
    return [...this.slots.values()]
      .sort((a, b) => a.setup.board - b.setup.board)
      .map((slot) => {
        const snap = slot.game.record;
        const s = snap.snapshot();
        return {
          board: slot.setup.board,
          round: this.options.config.round,
          source: slot.setup.source.text,
          ...(s.serial !== undefined ? { serial: s.serial } : {}),
          state: s.state,
          version: snap.currentVersion,
        };
      });
  }

  round(): number {
    return this.options.config.round;
  }

  snapshot(board: number): GameSnapshot | undefined {
    return this.slots.get(board)?.game.record.snapshot();
  }

  games(round: number): GameSnapshot[] {
    if (round === this.options.config.round) {
      return [...this.slots.values()]
        .sort((a, b) => a.setup.board - b.setup.board)
        .map((s) => s.game.record.snapshot());
    }
    let past = this.pastRounds.get(round);
    if (!past) {
      past = replayRound(this.options.journal, round, this.settings()).map((g) => g.record.snapshot());
      this.pastRounds.set(round, past);
    }
    return past;
  }

  since(board: number, version: number): GameEvent[] | undefined {
    return this.slots.get(board)?.game.record.since(version);
  }

  subscribe(listener: (event: GameEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private slotOf(board: number): Slot {
    const slot = this.slots.get(board);
    if (!slot) throw new Error(`no board ${board} in round ${this.options.config.round}`);
    return slot;
  }

  async decide(board: number, decision: ArbiterDecision): Promise<void> {
    const slot = this.slotOf(board);
    this.input(slot, { kind: 'decision', decision }, this.boardTime(slot));
    await this.settled();
  }

  async setResult(board: number, result: GameResult, advantage?: Side): Promise<void> {
    const slot = this.slotOf(board);
    this.input(slot, { kind: 'result', result, ...(advantage ? { advantage } : {}) }, this.boardTime(slot));
    await this.settled();
  }

  async setInfo(board: number, info: Partial<GameInfo>): Promise<void> {
    const { board: _b, variant: _v, ...rest } = info;
    const slot = this.slotOf(board);
    this.input(slot, { kind: 'info', info: rest }, this.boardTime(slot));
    await this.settled();
  }

  /** Asks every connected board for a full dump (the arbiter's "resync" button, tests). */
  requestSnapshots(): void {
    for (const { conn } of this.connections) conn.requestSnapshot();
  }
}
