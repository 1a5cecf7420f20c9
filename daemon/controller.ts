// The controller wires "boards in" together and implements the Hub the HTTP / WebSocket / MQTT
// side reads and calls: the live boards (board/), rebuilt from the journal on start; the
// connections and the routing of what they read (routing/); the group commit that journals every
// input before it is applied, and the ticks (ingest/). It sequences start and stop; the parts do
// the work.
import type { ClockCommandOutcome } from '../firmware-protocol/clock-command.ts';
import type { BoardEvent, Side } from '../firmware-protocol/events.ts';
import type { GameEvent, GameInfo, GameResult, GameSnapshot } from '../src/game/types.ts';
import type { ArbiterAction } from '../src/game/actions.ts';
import type { ArbiterDecision } from '../src/tracker/types.ts';
import { configuredInfo, PastRounds, replaySettings, sensorEvents } from './board/index.ts';
import { HoldUpClock, inputClock } from './hold-up-clock.ts';
import { BoardImages, IMAGING_MS } from './images.ts';
import { type LiveBoard, liveBoard, rebuildLive } from './live-board.ts';
import { newBoardGame, type TrackerFactory } from '../src/game/board-game.ts';
import { watched } from '../src/game/board-time.ts';
import {
  type CalibrationOutput,
  type CalibrationStart,
  type CalibrationTiming,
  ConnectedCalibrations,
} from './calibration/connected.ts';
import type { ProfileStore } from './calibration/profiles.ts';
import { DEFAULT_SEARCH_SHARE, type LoadedConfig } from './config/index.ts';
import type { ActAnswer, BoardSummary, Hub, JournalHealth } from './hub.ts';
import { DEFAULTS } from './config/schema.ts';
import { GroupCommit } from './ingest/group-commit.ts';
import { Ticks } from './ingest/ticks.ts';
import type { Journal } from './journal/index.ts';
import type { BoardInput } from '../src/game/board-game.ts';
import { type Logger, silentLogger } from './log.ts';
import { SerialBindings } from './routing/bindings.ts';
import { ConnectionStates } from './routing/connection-state.ts';
import { Connections } from './routing/connections.ts';
import type { ConnectionTiming, TransportDeps } from './transport/index.ts';
import { searchMemoOf } from './board/search-memo.ts';

export type ControllerConfig = Pick<
  LoadedConfig,
  'setups' | 'round' | 'variant' | 'event' | 'site' | 'date' | 'timeControl' | 'drawRule' | 'autoResult'
> &
  Partial<Pick<LoadedConfig, 'quickplayFinish'>>;

export interface ControllerOptions {
  config: ControllerConfig;
  journal: Journal;
  createTracker: TrackerFactory;
  transport?: TransportDeps;
  /** The data directory's board profiles: boards are read through them, and calibrated into them. */
  profiles?: ProfileStore;
  timing?: Partial<ConnectionTiming>;
  calibrationTiming?: CalibrationTiming;
  /** Tick period: how often boards with recent activity get a journaled `tick` (default 100 ms). */
  tickMs?: number;
  /**
   * Boards quiet for longer than this get no more ticks, after one past it (default 6000 ms: past
   * the tracker's stall time).
   */
  tickWindowMs?: number;
  /** Of one core, the share the boards' gap searches may take together (default 0.3, `gapSearch.share`). */
  searchShare?: number;
  logger?: Logger;
  /**
   * Simulated boards playing N× faster than people get an input clock running N× faster too, so
   * the tracker's human-scale timings still hold (default 1).
   */
  timeScale?: number;
  /** Stamps inputs (tests); default: inputClock(timeScale) starting after the journal's last entry. */
  now?: () => number;
  /** Rows kept in memory while the journal cannot write (default 100 000, `journal.backlog`). */
  journalBacklog?: number;
  /**
   * The backlog is full: default, exit with code 1 so the service manager restarts the daemon
   * (the boards' full dumps on reconnect bring their positions back) rather than lose inputs
   * silently or grow without end.
   */
  onJournalOverflow?: (health: JournalHealth) => void;
}

function exitForRestart(log: Logger): (health: JournalHealth) => void {
  return (health) => {
    const why = `the journal could not write (${health.reason}) and ${health.behind} inputs kept in memory reached journal.backlog (${health.bound}): exiting to be restarted`;
    log.fatal({ journal: health }, why);
    process.stderr.write(`damlink: ${why}\n`);
    process.exit(1);
  };
}

export class Controller implements Hub {
  /** The boards of the round, in configuration order. */
  private readonly live: ReadonlyMap<number, LiveBoard>;
  /** Stamps inputs, minding pauses of the daemon itself (see HoldUpClock). */
  private readonly clock: HoldUpClock;
  private readonly commits: GroupCommit;
  private readonly ticks: Ticks;
  private readonly connections: Connections;
  private readonly pastRounds: PastRounds;
  private readonly images: BoardImages;
  private imaging: NodeJS.Timeout | undefined;
  private readonly unsubscribeClocks: () => void;
  /** Each board's latest clock setting and what became of it (the act call waits for it). */
  private readonly clockCommands = new Map<number, Promise<ClockCommandOutcome>>();
  private stopped = false;
  private readonly calibrations: ConnectedCalibrations;

  constructor(private readonly options: ControllerOptions) {
    const log = options.logger ?? silentLogger();
    const { config, journal } = options;
    const { round } = config;
    // Searches a replay has seen end are not worked through again (a restart): it takes their steps and answers.
    const searchMemo = searchMemoOf(journal.searchRows());
    const settings = replaySettings(config, (o) => options.createTracker({ ...o, searchMemo }));
    const { createTracker: _, ...rules } = settings;
    journal.setRoundSettings(round, rules);
    const started = performance.now();
    this.commits = new GroupCommit(journal, round, log, {
      max: options.journalBacklog ?? DEFAULTS.journalBacklog,
      onOverflow: options.onJournalOverflow ?? exitForRestart(log),
    });
    this.live = new Map(
      config.setups.map((setup) => [
        setup.board,
        liveBoard(setup, newBoardGame(settings, round, setup.board)),
      ]),
    );
    this.images = new BoardImages(journal, round, settings, log);
    const last = rebuildLive(journal, round, this.live, (event) => this.commits.keep(event), this.images);
    this.images.rebuilt(this.live.values());
    // Input time starts after the journal's last entry, whatever the system clock says.
    const scale = options.timeScale ?? 1;
    this.clock = new HoldUpClock(options.now ?? inputClock(scale, last), scale);
    const now = this.clock.now();
    for (const board of this.live.values()) {
      const t = board.time.gap ? board.time.last : now;
      const info = configuredInfo(config, board.setup, board.game.record.snapshot().info, t);
      if (info) this.commits.input(board, { kind: 'info', info }, t);
      // A start opens every link anew: no board is active until it speaks again (one that cannot
      // be reached shows as connecting, not as the live board it was, clock running).
      if (watched(board.game.record.connection.state))
        this.commits.input(board, { kind: 'state', state: 'connecting' }, t);
    }
    this.commits.flush();
    log.info(
      {
        boards: this.live.size,
        round,
        restored: this.images.restored,
        ms: Math.round(performance.now() - started),
      },
      'games rebuilt from the journal',
    );
    this.connections = new Connections({
      setups: config.setups,
      boards: this.live,
      bindings: new SerialBindings(journal, round, config.setups, (board) => this.live.has(board)),
      states: new ConnectionStates(this.commits, this.clock),
      commits: this.commits,
      clock: this.clock,
      transport: options.profiles
        ? { ...options.transport, profiles: options.profiles.bySerial }
        : options.transport,
      timing: options.timing,
      log,
    });
    this.ticks = new Ticks(this.live.values(), this.commits, this.clock, round, {
      tickMs: options.tickMs ?? 100,
      windowMs: options.tickWindowMs ?? 6000,
      searchShare: options.searchShare ?? DEFAULT_SEARCH_SHARE,
    });
    this.pastRounds = new PastRounds(journal, settings, { log });
    // Rounds whose daemon was killed are rebuilt now, in a thread: a reader finds them kept.
    this.pastRounds.settle(journal.rounds().filter((r) => r !== round));
    this.calibrations = new ConnectedCalibrations(options.profiles, options.calibrationTiming);
    this.unsubscribeClocks = this.commits.subscribe((event) => {
      if (event.kind === 'clock-set') this.setBoardClock(event, log);
    });
  }

  /**
   * Sends the clock the record decided on (the arbiter's added time, the G.4 increment) to the board
   * whose clock accepts it, tried until the clock acknowledges it; journals what the clock answered,
   * and says where it could not follow, so the arbiter sets it by hand.
   */
  private setBoardClock(event: Extract<GameEvent, { kind: 'clock-set' }>, log: Logger): void {
    const { board, white, black, running } = event;
    const live = this.live.get(board);
    if (!live) return;
    const asked = { white, black, running };
    const outcome: Promise<ClockCommandOutcome> = live.feeder
      ? live.feeder.setClock({ type: 'set-clock', ...asked })
      : Promise.resolve({ set: false, reason: 'not-connected', answers: [] });
    this.clockCommands.set(board, outcome);
    void outcome.then((o) => {
      if (this.stopped) return;
      if (!o.set && o.reason !== 'replaced')
        log.warn(
          { board, asked, reason: o.reason, answers: o.answers },
          "the board's clock did not take damlink's setting: set it by hand",
        );
      this.commits.input(live, { kind: 'clock-command', asked, outcome: o }, live.time.at(this.clock.now()));
    });
  }

  /** The start's rebuild: the round's boards, and how many of them were restored from their images. */
  get rebuilt(): { boards: number; restored: number } {
    return { boards: this.live.size, restored: this.images.restored };
  }

  /** Opens every board's connection and starts the ticks. */
  start(): void {
    this.connections.start();
    this.clock.start();
    this.ticks.start();
    this.imaging = setInterval(() => this.images.keepDue(this.live.values(), this.commits), IMAGING_MS);
    this.imaging.unref();
  }

  /**
   * Stops; returns how many inputs could not be journaled (the journal was failing). `switching`:
   * another round follows in this daemon (RoundSwitch), whose start drops this round's images.
   */
  stop(switching = false): number {
    this.stopped = true;
    this.calibrations.stopAll('the round closed');
    this.pastRounds.close();
    this.unsubscribeClocks();
    this.ticks.stop();
    clearInterval(this.imaging);
    this.clock.stop();
    this.connections.stop();
    const unjournaled = this.commits.close();
    // The games as they stand: the round is served from them once it is past, without a replay; and
    // each board's image, restored at the next start (none when another round follows: taking them
    // would hold the new round's boards for a second, to be dropped).
    if (unjournaled === 0) {
      const { round } = this.options.config;
      this.options.journal.keepRoundGames(round, this.games(round));
      // Only of what is journaled with its outputs (a derived row a failing disk kept out is not).
      if (!switching && this.commits.caughtUp()) this.images.keepAll(this.live.values());
    }
    return unjournaled;
  }

  // ——— Hub ———

  boards(): BoardSummary[] {
    return this.ordered().map(({ setup, game, feeder, calibrating, openProblem }) => {
      const s = game.record.snapshot();
      // Known once the board said hello on its link (its capabilities).
      const route = feeder && watched(s.state) ? feeder.clockRoute() : undefined;
      return {
        board: setup.board,
        round: this.options.config.round,
        source: setup.source.text,
        ...(s.serial !== undefined ? { serial: s.serial } : {}),
        state: s.state,
        version: game.record.currentVersion,
        ...(route && !route.send ? { clockByHand: route.reason } : {}),
        ...(calibrating ? { calibrating: true as const } : {}),
        ...(game.tracker.searching ? { searching: { positions: game.tracker.searchNodes } } : {}),
        ...(game.tracker.following !== undefined ? { following: { plies: game.tracker.following } } : {}),
        ...(openProblem !== undefined ? { openProblem } : {}),
      };
    });
  }

  round(): number {
    return this.options.config.round;
  }

  snapshot(board: number): GameSnapshot | undefined {
    return this.live.get(board)?.game.record.snapshot();
  }

  hasRound(round: number): boolean {
    return round === this.options.config.round || this.options.journal.hasRound(round);
  }

  games(round: number): GameSnapshot[] {
    if (round !== this.options.config.round) return this.pastRounds.games(round);
    return this.ordered().map((b) => b.game.record.snapshot());
  }

  since(board: number, version: number): GameEvent[] | undefined {
    return this.live.get(board)?.game.record.since(version);
  }

  sensorEvents(board: number, from: number, to: number, limit: number): BoardEvent[] {
    if (!this.live.has(board)) return [];
    return sensorEvents(this.options.journal, this.options.config.round, board, { from, to, limit });
  }

  subscribe(listener: (event: GameEvent) => void): () => void {
    return this.commits.subscribe(listener);
  }

  decide(board: number, decision: ArbiterDecision): Promise<void> {
    return this.arbiterInput(board, { kind: 'decision', decision });
  }

  setResult(board: number, result: GameResult, advantage?: Side): Promise<void> {
    return this.arbiterInput(board, { kind: 'result', result, ...(advantage ? { advantage } : {}) });
  }

  async act(board: number, action: ArbiterAction): Promise<ActAnswer> {
    const before = this.clockCommands.get(board);
    await this.arbiterInput(board, { kind: 'action', action });
    let sent = this.clockCommands.get(board);
    if (!sent || sent === before) return {};
    // A newer setting (a press meanwhile) carries the clock: its answer is the one that counts.
    for (;;) {
      const outcome = await sent;
      const newer: Promise<ClockCommandOutcome> | undefined = this.clockCommands.get(board);
      if (outcome.set || outcome.reason !== 'replaced' || !newer) return { clock: outcome };
      sent = newer;
    }
  }

  setInfo(board: number, info: Partial<GameInfo>): Promise<void> {
    const { board: _b, variant: _v, ...rest } = info;
    return this.arbiterInput(board, { kind: 'info', info: rest });
  }

  resync(board?: number): number[] {
    return this.connections.resync(board);
  }

  journalHealth(): JournalHealth {
    return this.commits.health();
  }

  calibrate(board: number, onOutput: (output: CalibrationOutput) => void): CalibrationStart {
    const live = this.live.get(board);
    if (!live) return { ok: false, code: 'failed', message: `no board ${board} in round ${this.round()}` };
    return this.calibrations.start(live, onOutput);
  }

  private ordered(): LiveBoard[] {
    return [...this.live.values()].sort((a, b) => a.setup.board - b.setup.board);
  }

  /** Journaled, applied and synced to disk once the promise resolves. */
  private async arbiterInput(board: number, input: BoardInput): Promise<void> {
    const live = this.live.get(board);
    if (!live) throw new Error(`no board ${board} in round ${this.options.config.round}`);
    await this.commits.durable(live, input, live.time.at(this.clock.now()));
  }
}
