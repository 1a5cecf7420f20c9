// A virtual board (I/O half): plays ground-truth games in real time (scaled by `speed`), keeps its
// physical board, encodes what its sensors see for whichever host link is attached, and answers host
// commands (dump, ping, identify, clock) the way firmware does.
import { randomBytes } from 'node:crypto';
import type { ClockReading } from '../firmware-protocol/clock-reading.ts';
import type { BoardEvent, HelloEvent, StampedEvent } from '../firmware-protocol/events.ts';
import { LINE_PROTOCOL_VERSION } from '../firmware-protocol/index.ts';
import type {
  BoardEncoder,
  CommandParser,
  HostCommand,
  ProtocolOptions,
} from '../firmware-protocol/types.ts';
import type { SimulatedGame } from './game.ts';
import { boardSide, type SimProtocol } from './protocol.ts';
import type { Scheduler } from './scheduler.ts';

/** Whatever carries bytes to the host: a socket, a PTY end, an in-process stream. */
export interface BoardLink {
  write(bytes: Uint8Array): void;
}

export interface VirtualBoardOptions {
  name: string;
  serial: string;
  protocol: SimProtocol;
  protocolOptions?: ProtocolOptions;
  /** The first game (undefined: the board plays nothing). */
  firstGame: SimulatedGame | undefined;
  /** The next game to play, starting on `setupFrom` (the board as the last game left it) at game
   * time `startT`; undefined when the board has played everything. Asked for when the game before
   * it starts, so one made elsewhere (a thread) is ready when that one ends. */
  nextGame: (
    index: number,
    startT: number,
    setupFrom: string | undefined,
  ) => SimulatedGame | undefined | Promise<SimulatedGame | undefined>;
  scheduler: Scheduler;
  /** Game time runs this many times faster than wall time. */
  speed: number;
  /** Keep every event actually sent (tests compare it with what the host decoded). */
  record?: boolean;
  /** When the first game starts: when a host attaches (default), when the host first sends a
   * command (PTYs, whose opening the board cannot see), or right away. */
  startOn?: 'attach' | 'first-command' | 'now';
  /**
   * Where in each second this board's clock sends its update (0–999 ms after the board starts):
   * real clocks are not in step with one another, and 200 boards all sending in the same
   * millisecond is a burst no hall produces.
   */
  clockPhaseMs?: number;
  /** The board reports by scans of this period (its games were made so): a line board's hello says it. */
  scanMs?: number;
  /** Called with the lateness (ms) of every event emitted (benchmarks). */
  onLateness?: (lateMs: number) => void;
  /** Called when a game starts playing (ground-truth files are written from here). */
  onGame?: (game: SimulatedGame, index: number) => void;
  /**
   * A long outage (a radio link or hub dropping out): after the clock press of ply `afterPly` the
   * board sends nothing while the players play `plies` more plies, then greets the host again with
   * `hello` and a full dump (simulator/outage.ts is the same on ground truth).
   */
  outage?: Outage;
  /**
   * Line boards: keep the board's history (protocol 1.1, capability `history`): number and time every
   * change, keep the last `keep`, and send them again when the host asks (default: on, keeping
   * 4096). false: a 1.0 board that remembers nothing.
   */
  history?: boolean | { keep: number };
}

/** Changes a history board keeps at least (PROTOCOL.md 1.12). */
export const HISTORY_KEEP = 4096;

export interface Outage {
  afterPly: number;
  plies: number;
}

export interface LatenessStats {
  events: number;
  /** Largest delay (ms) between when an event was due and when it was written. */
  maxLateMs: number;
  /** Events written more than 50 ms late. */
  lateOver50: number;
  /** Clock presses (one per move) emitted. */
  moves: number;
}

/** Games a board keeps in `games` (older ones are dropped when it loops). */
const KEEP_GAMES = 10;

/** Game time between the end of one game and the players starting the next set-up (--loop). */
const BETWEEN_GAMES_MS = 8000;

export class VirtualBoard {
  readonly name: string;
  readonly serial: string;
  readonly protocol: SimProtocol;
  readonly games: SimulatedGame[] = [];
  readonly sent: BoardEvent[] = [];
  readonly stats: LatenessStats = { events: 0, maxLateMs: 0, lateOver50: 0, moves: 0 };
  readonly done: Promise<void>;

  private readonly encoder: BoardEncoder;
  private readonly parser: CommandParser;
  private link: BoardLink | undefined;
  private started = false;
  private stopped = false;
  private finish!: () => void;
  /** Physical board: one char per square (`w b W B o .`). */
  private cells: string[] = [];
  private lastClock: (ClockReading & { t: number }) | undefined;
  /** DGT boards stay quiet until the host asks for updates; line boards always stream. */
  private streaming: boolean;
  private clockUpdates = true;
  /** DGT `changes+clock` (0x43): the clock is sent every second, on top of its changes. */
  private clockEverySecond = false;
  /** Wall time (ms) of game time `originT`. */
  private originWall = 0;
  private originT = 0;
  private squares: 50 | 32 = 50;
  private senses: 'pieces' | 'occupancy' = 'pieces';
  private readonly firstGame: SimulatedGame | undefined;
  /** In the outage (see VirtualBoardOptions.outage): nothing is sent. */
  private offline = false;
  /** History boards: the changes kept (oldest first), how many, and this power-up's id. */
  private readonly kept: StampedEvent[] | undefined;
  private readonly keep: number;
  private changes = 0;
  private readonly boot = randomBytes(4).toString('hex');

  constructor(private readonly opts: VirtualBoardOptions) {
    this.name = opts.name;
    this.serial = opts.serial;
    this.protocol = opts.protocol;
    const side = boardSide(opts.protocol, opts.protocolOptions);
    this.encoder = side.encoder;
    this.parser = side.parser;
    this.streaming = opts.protocol !== 'dgt';
    const history = opts.protocol === 'line' ? (opts.history ?? true) : false;
    this.kept = history === false ? undefined : [];
    this.keep = typeof history === 'object' ? history.keep : HISTORY_KEEP;
    this.done = new Promise((resolve) => {
      this.finish = resolve;
    });
    // The first game is made up front so the board stands set up (and answers dumps) before it starts.
    this.firstGame = opts.firstGame;
    if (this.firstGame) {
      const first = this.firstGame.events[0];
      this.originT = first?.t ?? 0;
      this.squares = this.firstGame.variant === 'brazilian' ? 32 : 50;
      this.senses = this.firstGame.occupancyOnly ? 'occupancy' : 'pieces';
      this.cells = first?.type === 'snapshot' ? [...first.board] : [];
    } else {
      // A board with no game stands empty (until someone puts pieces on it: `perform`).
      this.squares = opts.protocolOptions?.size === 8 ? 32 : 50;
      this.cells = new Array<string>(this.squares).fill('.');
    }
    if (opts.startOn === 'now') this.start();
  }

  get connected(): boolean {
    return this.link !== undefined;
  }

  get isStarted(): boolean {
    return this.started;
  }

  /** The physical board right now, as a dump would show it. */
  boardString(): string {
    return this.cells.join('');
  }

  /** A host connected. Line boards greet every new connection with hello (firmware with its own
   * network stack knows about connections); DGT boards wait to be asked. A PTY has no notion of
   * the other end opening, so it attaches without the greeting. */
  attach(link: BoardLink, greet = true): void {
    this.link = link;
    // PROTOCOL.md 1.7: on connection `hello`, then `snap` (a board not yet playing sends its snap
    // as the first event of its game).
    if (greet && this.protocol === 'line') this.greet();
    if ((this.opts.startOn ?? 'attach') === 'attach') this.start();
  }

  detach(link: BoardLink): void {
    if (this.link === link) this.link = undefined;
  }

  /** Starts the first game now (idempotent). */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.originWall = this.opts.scheduler.now();
    if (this.protocol === 'line') this.startClockEverySecond();
    this.playGame(0, this.firstGame);
  }

  stop(): void {
    this.stopped = true;
    this.link = undefined;
    this.finish();
  }

  /** Bytes from the host. */
  receive(bytes: Uint8Array): void {
    if (this.opts.startOn === 'first-command') this.start();
    for (const cmd of this.parser.push(bytes)) this.command(cmd);
  }

  /** Game time now (what `t` a reply carries). */
  gameNow(): number {
    if (!this.started) return this.originT;
    return Math.round(this.originT + (this.opts.scheduler.now() - this.originWall) * this.opts.speed);
  }

  private playGame(index: number, game: SimulatedGame | undefined): void {
    if (!game || this.stopped) {
      this.finish();
      return;
    }
    this.games.push(game);
    // A board that loops forever keeps only its recent games.
    if (this.games.length > KEEP_GAMES) this.games.splice(0, this.games.length - KEEP_GAMES);
    this.opts.onGame?.(game, index);
    const events = game.events;
    const wallOf = (t: number) => this.originWall + (t - this.originT) / this.opts.speed;
    // The next game (if any) starts after a break, set up from this game's final board. It is asked
    // for three quarters through this one: made elsewhere (a thread), it is ready when this one
    // ends, and boards that started together do not all ask at once.
    const startT = game.endT + BETWEEN_GAMES_MS;
    const askAt = Math.floor(events.length * 0.75);
    let upcoming: Promise<SimulatedGame | undefined> | undefined;
    const ask = () => {
      // A game that could not be made ends the board's play, like no game.
      upcoming ??= Promise.resolve(this.opts.nextGame(index + 1, startT, game.finalBoard)).catch(
        () => undefined,
      );
      return upcoming;
    };
    // Events are scheduled one after the other, so a board holds one timer entry at a time.
    const emitFrom = (i: number) => {
      if (this.stopped) return;
      if (i === askAt) void ask();
      if (i >= events.length) {
        void ask().then((next) => {
          if (!next || this.stopped) this.finish();
          else this.opts.scheduler.at(wallOf(startT), () => this.playGame(index + 1, next));
        });
        return;
      }
      this.opts.scheduler.at(wallOf(events[i].t), (late) => {
        this.emit(events[i], late);
        emitFrom(i + 1);
      });
    };
    emitFrom(0);
  }

  /** Hands on the board outside any game (a person answering calibration prompts): felt and told now. */
  perform(event: BoardEvent): void {
    const felt = this.remember(event);
    this.apply(felt);
    if (this.streaming) this.send(felt);
  }

  /** A history board numbers and times each change and keeps it (its time: the game's, in ms). */
  private remember(event: BoardEvent): BoardEvent {
    const kept = this.kept;
    if (!kept || (event.type !== 'lift' && event.type !== 'put' && event.type !== 'press')) return event;
    const stamped: StampedEvent = { ...event, stamp: { n: ++this.changes, ms: Math.round(event.t) } };
    kept.push(stamped);
    // Cut back in chunks: one splice per 512 changes rather than a shift for each.
    if (kept.length > this.keep + 512) kept.splice(0, kept.length - this.keep);
    return stamped;
  }

  /** `history N`: every change kept after N, then `recs` (or `recs gone` when N is forgotten). */
  private recall(after: number): void {
    const kept = this.kept;
    if (!kept) return;
    const t = this.gameNow();
    const first = kept.length > 0 ? kept[0].stamp!.n : this.changes + 1;
    if (after + 1 < first && after < this.changes) {
      this.reply({ t, type: 'history-end', outcome: 'gone', first, last: this.changes, ms: t });
      return;
    }
    for (const e of kept)
      if (e.stamp!.n > after) this.reply({ ...e, t, stamp: { ...e.stamp!, recalled: true } });
    this.reply({ t, type: 'history-end', outcome: 'done', last: this.changes, ms: t });
  }

  private emit(original: BoardEvent, lateMs: number): void {
    const event = this.remember(original);
    this.apply(event);
    this.stats.events++;
    if (lateMs > this.stats.maxLateMs) this.stats.maxLateMs = lateMs;
    if (lateMs > 50) this.stats.lateOver50++;
    if (event.type === 'press') this.stats.moves++;
    this.opts.onLateness?.(lateMs);
    if (!this.streaming) return;
    if (!this.clockUpdates && (event.type === 'clock' || event.type === 'press')) return;
    if (this.inOutage(event)) return;
    this.send(event);
  }

  /** Whether `event` is lost in the outage; its end greets the host again with a full dump. */
  private inOutage(event: BoardEvent): boolean {
    const outage = this.opts.outage;
    if (!outage) return false;
    const pressed = event.type === 'press' ? this.stats.moves : -1;
    if (!this.offline) {
      // The press that ends ply `afterPly` still goes out; the board is off after it.
      if (pressed === outage.afterPly) this.offline = true;
      return false;
    }
    if (pressed !== outage.afterPly + outage.plies) return true;
    this.offline = false;
    if (this.protocol === 'line') this.greet(true);
    else this.reply({ t: this.gameNow(), type: 'snapshot', board: this.boardString() });
    return true;
  }

  private apply(event: BoardEvent): void {
    this.encoder.remember?.(event);
    if (event.type === 'lift') this.cells[event.square - 1] = '.';
    else if (event.type === 'put') this.cells[event.square - 1] = event.piece ?? 'o';
    else if (event.type === 'snapshot') this.cells = [...event.board];
    else if (event.type === 'clock') this.lastClock = { ...event };
  }

  private send(event: BoardEvent): void {
    if (!this.link) return;
    const bytes = this.encoder.encode(event);
    if (bytes.length === 0) return;
    this.link.write(bytes);
    if (this.opts.record) this.sent.push(event);
  }

  private reply(event: BoardEvent): void {
    this.send(event);
  }

  private greet(always = false): void {
    this.reply(this.hello());
    if (always || this.started)
      this.reply({ t: this.gameNow(), type: 'snapshot', board: this.boardString() });
  }

  private hello(): HelloEvent {
    return {
      t: this.gameNow(),
      type: 'hello',
      serial: this.serial,
      // A board that keeps no history is a 1.0 board.
      protocol:
        this.protocol === 'line'
          ? `damlink-line/${this.kept ? LINE_PROTOCOL_VERSION : '1.0'}`
          : this.protocol,
      firmware: '1.0',
      squares: this.squares,
      senses: this.senses,
      // Line boards have a clock: they send `clock` and `press` (and take `clock`, acknowledged but
      // not applied: the simulated game's clock is its ground truth).
      ...(this.protocol === 'line' ? { capabilities: this.kept ? ['clock', 'history'] : ['clock'] } : {}),
      ...(this.kept ? { boot: this.boot } : {}),
      ...(this.protocol === 'line' && this.opts.scanMs !== undefined ? { scanMs: this.opts.scanMs } : {}),
    };
  }

  /** Starts the clock's updates once a second (at this board's phase), unless they run already. */
  private startClockEverySecond(): void {
    if (this.clockEverySecond) return;
    this.clockEverySecond = true;
    this.tickClock(this.opts.scheduler.now() + 1000 + (this.opts.clockPhaseMs ?? 0));
  }

  /** Sends the running clock once a (wall-clock) second: line boards while it runs (PROTOCOL.md
   * 1.8), DGT boards in `changes+clock` mode. Each second is counted from the last one's due
   * time, as firmware counts from its own clock: a late timer does not move the phase. */
  private tickClock(due: number): void {
    this.opts.scheduler.at(due, () => {
      if (!this.clockEverySecond || this.stopped) return;
      const runs = this.lastClock?.running !== null && this.lastClock !== undefined;
      if (this.streaming && !this.offline && this.lastClock && (this.protocol === 'dgt' || runs))
        this.send(this.clockNow());
      this.tickClock(due + 1000);
    });
  }

  private clockNow(): BoardEvent {
    const t = Math.round(this.gameNow());
    const c = this.lastClock ?? { white: 0, black: 0, running: null, t };
    const spent = Math.max(0, t - c.t);
    return {
      t,
      type: 'clock',
      white: c.running === 'white' ? Math.max(0, c.white - spent) : c.white,
      black: c.running === 'black' ? Math.max(0, c.black - spent) : c.black,
      running: c.running,
    };
  }

  private command(cmd: HostCommand): void {
    const t = this.gameNow();
    switch (cmd.type) {
      case 'snapshot':
        this.reply({ t, type: 'snapshot', board: this.boardString() });
        break;
      case 'ping':
      case 'serial':
        // A keep-alive: a DGT board's encoder says it with the serial number alone.
        this.reply({ t, type: 'tick', reply: 'pong' });
        break;
      case 'identify':
      case 'version':
        // `hello` restarts the line sequence; the board follows it with `snap` (PROTOCOL.md 1.7).
        // (Only DGT hosts ask for the version.)
        if (this.protocol === 'line') this.greet(true);
        else this.reply(this.hello());
        break;
      case 'clock-request':
        this.reply(this.clockNow());
        break;
      case 'history':
        // A DGT board sends its whole EEPROM record; a line board the changes after `after`.
        if (this.encoder.eeMoves) this.link?.write(this.encoder.eeMoves());
        else this.recall(cmd.after);
        break;
      case 'set-clock':
        this.reply({ t, type: 'tick', reply: 'ack' });
        break;
      case 'update-mode':
        this.streaming = true;
        this.clockUpdates = cmd.mode !== 'changes';
        if (cmd.mode === 'changes+clock') this.startClockEverySecond();
        else this.clockEverySecond = false;
        break;
      case 'reset':
        if (this.protocol === 'dgt') {
          this.streaming = false;
          this.clockEverySecond = false;
        }
        break;
      default:
        break;
    }
  }
}
