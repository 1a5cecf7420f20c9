// Virtual boards for rehearsals, demos and integration tests: `startSimulation` plays seeded (or PDN)
// games on N boards in real time over tcp, socat PTYs or in-process streams; `writeGroundTruthGames`
// makes the ground-truth files alone, as fast as the CPU allows.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { ProtocolOptions } from '../firmware-protocol/types.ts';
import type { PdnGame } from '../src/engine/index.ts';
import { type SimulatedGame, type SimulateGameOptions, simulateGame } from './game.ts';
import { writeGroundTruth } from './ground-truth.ts';
import type { SimProtocol } from './protocol.ts';
import type { ScanReports } from './scan-board.ts';
import { GamePool } from './game-pool.ts';
import { Scheduler } from './scheduler.ts';
import { connectInProcess } from './transports/memory.ts';
import { openPty } from './transports/pty.ts';
import { listenTcp } from './transports/tcp.ts';
import { type LatenessStats, type Outage, VirtualBoard, type VirtualBoardOptions } from './virtual-board.ts';

export type { SimulatedGame, SimulateGameOptions } from './game.ts';
export { simulateGame } from './game.ts';
export { writeGroundTruth } from './ground-truth.ts';
export type { BoardLink, LatenessStats } from './virtual-board.ts';
export { VirtualBoard } from './virtual-board.ts';
export { Scheduler } from './scheduler.ts';
export { connectInProcess } from './transports/memory.ts';
export { answerPrompt } from './follow-prompts.ts';

export type SimTransport = 'tcp' | 'pty' | 'memory' | 'none';
export const SIM_TRANSPORTS: readonly SimTransport[] = ['tcp', 'pty', 'memory', 'none'];

/** How each game is played (everything of simulateGame but what the board decides). */
export type GameSettings = Omit<SimulateGameOptions, 'seed' | 'moves' | 'startT' | 'setupFrom'>;

export interface SimulationOptions {
  /** Number of boards (default: one per PDN game, else 1). */
  boards?: number;
  /** One PDN game (text or parsed) per board (board i plays game i mod count). Self-play when absent. */
  pdnGames?: readonly (string | PdnGame)[];
  protocol?: SimProtocol;
  protocolOptions?: ProtocolOptions;
  transport?: SimTransport;
  /** tcp: listen address (default 127.0.0.1) and first port (0 = any free port per board). */
  host?: string;
  basePort?: number;
  /** pty: directory for the links (default: a new temp dir, removed on stop). */
  ptyDir?: string;
  /** Game time runs this many times faster (default 1 = human speed). */
  speed?: number;
  seed?: number;
  game?: GameSettings;
  /** Games each board plays one after the other (default 1), setting up the pieces in between. */
  gamesPerBoard?: number;
  /** Keep playing new games forever. */
  loop?: boolean;
  /** Write each game's ground truth here as it starts (`board-N-gK.jsonl/.pdn/.injected.json`). */
  eventsOut?: string;
  /** Each board keeps the list of events it sent (tests). */
  record?: boolean;
  /** Boards stand empty and play no game (they answer calibration prompts: `answerPrompt`). */
  idle?: boolean;
  /** Start every board's first game now instead of when a host connects. */
  startNow?: boolean;
  /** Every board drops off once, after its `afterPly`-th clock press (see VirtualBoardOptions.outage). */
  outage?: Outage;
  /** Line boards keep their history (protocol 1.1 `history`, the default); false: 1.0 boards that remember nothing. */
  history?: VirtualBoardOptions['history'];
  /**
   * Boards that report by scans of `scanMs` in their scan order (square numbers rising on one
   * board, falling on the next), as DGT boards do: every `every`-th board (1: all). A line board's
   * hello says so (`scan=`); a DGT board's period is the daemon's description of it (at most 300 ms
   * unless it says otherwise).
   */
  scanning?: { every: number; scanMs: number };
  /** Called with the lateness (ms) of every event any board emits (benchmarks). */
  onLateness?: (lateMs: number) => void;
}

export interface SimulatedBoard {
  index: number;
  name: string;
  serial: string;
  /** Where the daemon finds it: `tcp://127.0.0.1:7001`, a PTY path, or `memory:board-1`. */
  address: string;
  board: VirtualBoard;
  /** In-process transport only: the host end (read board bytes, write host commands). */
  stream?: Duplex;
}

export interface Simulation {
  boards: SimulatedBoard[];
  /** Resolves when every board has played all its games (never with `loop`). */
  done: Promise<void>;
  stop(): Promise<void>;
  /** Lateness over all boards. */
  stats(): LatenessStats;
  /**
   * In-process host end of a board by name (the daemon's `InProcessBoards.connect`): the stream made
   * at start the first time, a new connection (a reconnect) after that.
   */
  connect(name: string): Duplex;
}

/** A distinct, reproducible seed per (simulation seed, board, game). */
export const seedFor = (seed: number, board: number, game: number): number =>
  (Math.imul(seed, 1_000_003) + Math.imul(board + 1, 7919) + Math.imul(game, 104_729)) >>> 0;

const serialFor = (protocol: SimProtocol, index: number): string =>
  protocol === 'dgt' ? String(index + 1).padStart(5, '0') : `SIM-${String(index + 1).padStart(4, '0')}`;

/** What simulateGame needs for the game board `index` plays as its `game`-th game. */
function gameOptions(
  opts: SimulationOptions,
  index: number,
  game: number,
  startT: number,
  setupFrom?: string,
): SimulateGameOptions {
  const pdn = opts.pdnGames?.length ? opts.pdnGames[index % opts.pdnGames.length] : undefined;
  const scanReports = scanReportsOf(opts, index);
  return {
    ...opts.game,
    seed: seedFor(opts.seed ?? 1, index, game),
    moves: pdn,
    startT,
    setupFrom,
    ...(scanReports ? { scanReports } : {}),
  };
}

/** How board `index` reports its changes when it is one of the scanning boards. */
function scanReportsOf(opts: SimulationOptions, index: number): ScanReports | undefined {
  const s = opts.scanning;
  if (!s || (index + 1) % s.every !== 0) return undefined;
  return { scanMs: s.scanMs, order: Math.floor(index / s.every) % 2 === 0 ? 'rising' : 'falling' };
}

const makeGame = (...args: Parameters<typeof gameOptions>): SimulatedGame =>
  simulateGame(gameOptions(...args));

const boardCount = (opts: SimulationOptions): number => opts.boards ?? (opts.pdnGames?.length || 1);

/**
 * Ground truth only (`--transport none`): every board's game, written to `dir`. Returns the games;
 * `onGame` hears of each one written (progress).
 */
export async function writeGroundTruthGames(
  opts: SimulationOptions & { eventsOut: string },
  onGame?: (done: number, total: number) => void,
): Promise<SimulatedGame[]> {
  const games: SimulatedGame[] = [];
  const total = boardCount(opts);
  for (let i = 0; i < total; i++) {
    const game = makeGame(opts, i, 0, 0);
    await writeGroundTruth(opts.eventsOut, `board-${i + 1}`, game);
    games.push(game);
    onGame?.(i + 1, total);
  }
  return games;
}

export async function startSimulation(opts: SimulationOptions = {}): Promise<Simulation> {
  const transport = opts.transport ?? 'tcp';
  if (transport === 'none') throw new Error('transport none: use writeGroundTruthGames');
  const protocol = opts.protocol ?? 'line';
  if (protocol === 'dgt' && opts.game?.occupancyOnly) {
    throw new Error('DGT boards identify pieces: occupancy-only boards speak the line protocol');
  }
  // The board's size follows the variant unless the caller describes the board itself.
  const protocolOptions: ProtocolOptions = {
    size: opts.game?.variant === 'brazilian' ? 8 : 10,
    ...opts.protocolOptions,
  };
  const scheduler = new Scheduler();
  const closers: (() => Promise<void>)[] = [];
  const boards: SimulatedBoard[] = [];
  let ptyDir = opts.ptyDir;
  // A folder named for the links is made when missing (a rehearsal's `--pty-dir /tmp/sim`).
  if (transport === 'pty' && ptyDir) await mkdir(ptyDir, { recursive: true });
  if (transport === 'pty' && !ptyDir) {
    const made = await mkdtemp(join(tmpdir(), 'damlink-sim-'));
    ptyDir = made;
    closers.push(() => rm(made, { recursive: true, force: true }));
  }
  // Later games are made in a thread (game-pool.ts); first games before anything starts.
  const gamesPerBoard = opts.gamesPerBoard ?? 1;
  const pool = opts.loop || gamesPerBoard > 1 ? new GamePool() : undefined;
  if (pool) closers.push(() => pool.stop());
  const stop = async () => {
    scheduler.stop();
    for (const b of boards) b.board.stop();
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  };
  try {
    // Every board (and its first game) first, then the transports: a board that starts playing
    // must not wait for the next one's game to be made.
    for (let i = 0; i < boardCount(opts); i++) {
      const name = `board-${i + 1}`;
      const board = new VirtualBoard({
        name,
        serial: serialFor(protocol, i),
        protocol,
        protocolOptions,
        scheduler,
        speed: opts.speed ?? 1,
        record: opts.record,
        // Spread over the second, reproducibly (the seed of the board's first game picks it).
        clockPhaseMs: seedFor(opts.seed ?? 1, i, 0) % 1000,
        onLateness: opts.onLateness,
        outage: opts.outage,
        history: opts.history,
        scanMs: scanReportsOf(opts, i)?.scanMs,
        // A PTY's opening is invisible to the board, and a DGT board stays idle until asked for
        // updates: both start playing when the host first speaks.
        startOn: opts.startNow
          ? 'now'
          : transport === 'pty' || protocol === 'dgt'
            ? 'first-command'
            : 'attach',
        firstGame: opts.idle ? undefined : makeGame(opts, i, 0, 0),
        nextGame: (g, startT, setupFrom) =>
          g >= gamesPerBoard && !opts.loop
            ? undefined
            : (pool?.make(gameOptions(opts, i, g, startT, setupFrom)) ??
              makeGame(opts, i, g, startT, setupFrom)),
        onGame: opts.eventsOut
          ? (game, g) => void writeGroundTruth(opts.eventsOut!, `${name}-g${g + 1}`, game).catch(() => {})
          : undefined,
      });
      boards.push({ index: i, name, serial: board.serial, address: '', board });
    }
    for (const entry of boards) {
      const { board, name, index } = entry;
      if (transport === 'tcp') {
        const port = opts.basePort ? opts.basePort + index : 0;
        const server = await listenTcp(board, opts.host ?? '127.0.0.1', port);
        closers.push(server.close);
        entry.address = server.address;
      } else if (transport === 'pty') {
        const pty = await openPty(board, ptyDir!, name);
        closers.push(pty.close);
        entry.address = pty.address;
      } else {
        entry.stream = connectInProcess(board);
        entry.address = `memory:${name}`;
        closers.push(async () => {
          entry.stream?.destroy();
        });
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  const unclaimed = new Map(boards.flatMap((b) => (b.stream ? [[b.name, b.stream] as const] : [])));
  return {
    boards,
    connect(name) {
      const entry = boards.find((b) => b.name === name || String(b.index + 1) === name);
      if (!entry) throw new Error(`no simulated board ${name}`);
      const first = unclaimed.get(entry.name);
      unclaimed.delete(entry.name);
      return first && !first.destroyed ? first : connectInProcess(entry.board);
    },
    done: Promise.all(boards.map((b) => b.board.done)).then(() => undefined),
    stop,
    stats: () => {
      const total: LatenessStats = { events: 0, maxLateMs: 0, lateOver50: 0, moves: 0 };
      for (const b of boards) {
        total.events += b.board.stats.events;
        total.maxLateMs = Math.max(total.maxLateMs, b.board.stats.maxLateMs);
        total.lateOver50 += b.board.stats.lateOver50;
        total.moves += b.board.stats.moves;
      }
      return total;
    },
  };
}
