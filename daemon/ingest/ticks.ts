// Time passing, so settle windows and stall times expire without a board event. A tick is the
// daemon's own input, so it may be applied before it is journaled: only ticks that decided
// something, or took a step of a gap search, are journaled (and published after that). A tick
// that changed nothing needs no replay: the tracker takes each decision at its due time, whichever
// later input triggers it, so the journal replays the same outputs in the same order — with a
// tenth of the rows. A gap search's steps are not due at a time: they are granted by ticks of their
// own (./searches.ts), each journaled.
import type { GameEvent } from '../../src/game/types.ts';
import { everyAfterIo } from '../after-io.ts';
import type { HoldUpClock } from '../hold-up-clock.ts';
import type { LiveBoard } from '../live-board.ts';
import { watched } from '../../src/game/board-time.ts';
import type { AppendRequest } from '../journal/index.ts';
import type { BoardInput } from '../../src/game/board-game.ts';
import type { GroupCommit } from './group-commit.ts';
import { SearchShare } from './searches.ts';

/** Groups of boards ticked in turn (see start). */
export const TICK_PHASES = 10;

export interface TickOptions {
  /** How often a board with recent activity gets a tick (ms). */
  tickMs: number;
  /** Boards quiet for longer than this get no more ticks, after one past it (ms). */
  windowMs: number;
  /** Of each turn, the share the boards' gap searches may take together (0–1; at least a step). */
  searchShare: number;
}

export class Ticks {
  /** The boards of each phase, in board order. */
  private readonly phases: LiveBoard[][] = Array.from({ length: TICK_PHASES }, () => []);
  private readonly boards: LiveBoard[];
  private turn = 0;
  private stopTicks: (() => void) | undefined;
  private readonly share: SearchShare;

  constructor(
    boards: Iterable<LiveBoard>,
    private readonly commits: GroupCommit,
    private readonly clock: HoldUpClock,
    private readonly round: number,
    private readonly options: TickOptions,
  ) {
    this.boards = [...boards];
    this.share = new SearchShare(options.searchShare, options.tickMs / TICK_PHASES);
    for (const board of this.boards) this.phases[board.setup.board % TICK_PHASES].push(board);
  }

  /**
   * Time passes for the trackers only after the loop has read what the boards sent meanwhile: a
   * tick run first would see a settle window or a stall time expire that the events already
   * waiting in the sockets would have kept open.
   * The boards take their ticks in TICK_PHASES groups, one group a turn, so each board still gets
   * one every tickMs: ticks decide moves (a press's grace, a settle window), and two hundred
   * boards deciding in one turn kept every event that arrived meanwhile waiting for milliseconds.
   */
  start(): void {
    this.stopTicks = everyAfterIo(
      () => this.tick(this.turn++ % TICK_PHASES),
      this.options.tickMs / TICK_PHASES,
    );
  }

  stop(): void {
    this.stopTicks?.();
    this.stopTicks = undefined;
  }

  private tick(phase: number): void {
    // Inputs still queued are older than this tick: they go first.
    this.commits.flush();
    const { tickMs, windowMs } = this.options;
    const { round } = this;
    const decided: { input: AppendRequest; events: GameEvent[] }[] = [];
    const journaled = (board: LiveBoard, t: number, input: BoardInput, events: GameEvent[]) => {
      board.time.saw(t);
      decided.push({ input: { round, board: board.setup.board, t, input }, events });
    };
    for (const board of this.phases[phase]) {
      // A board nobody watches gets no time (see BoardTime), nor does one being calibrated.
      if (board.time.gap || !watched(board.game.record.connection.state) || board.calibrating) continue;
      const t = board.time.at(this.clock.now());
      // Ticks stop once one has come after the window: that one took every decision still due, even
      // when the board's time leapt past the window at once (the daemon held up, see HoldUpClock).
      // damlink's own clock keeps a quiet board ticking: its flag falls with time alone.
      // A board searching a gap keeps its ticks, however long it has been quiet.
      const { tracker } = board.game;
      const searching = tracker.searching;
      const quiet =
        !searching && board.lastTick - board.lastEvent > windowMs && !board.game.record.clockRunning;
      if (quiet || t - board.lastTick < tickMs) continue;
      board.lastTick = t;
      const input: BoardInput = { kind: 'event', event: { t, type: 'tick' } };
      const events = this.commits.apply(board, input, t);
      // A tick that started a search is journaled: the replay starts it at the same input.
      if (events.length === 0 && searching === tracker.searching) continue;
      journaled(board, t, input, events);
    }
    // Then the searches' share of the time, a step a board, the least served first.
    this.share.turn(
      this.boards,
      () => performance.now(),
      (board) => {
        const t = board.time.at(this.clock.now());
        const input: BoardInput = { kind: 'event', event: { t, type: 'tick', steps: 1 } };
        journaled(board, t, input, this.commits.apply(board, input, t));
      },
    );
    // One commit for every board's decisive tick (and outputs waiting for a commit), then publish.
    if (decided.length > 0 || this.commits.hasDerived())
      this.commits.commitApplied(decided.map((d) => d.input));
    for (const { events } of decided) for (const event of events) this.commits.publish(event);
  }
}
