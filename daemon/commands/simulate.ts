// `damlink simulate`: virtual boards that play like people (seeded self-play or PDN games) over tcp,
// socat PTYs or not at all (`--transport none --events-out DIR`: ground-truth files only).
// `--json`: JSON lines ({"type":"board"|"game"|"done",…}) instead of the table.
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { type Command, Option } from 'commander';
import { formatLocated } from '../../src/result.ts';
import { type PdnGame, parsePdn, type Variant } from '../../src/engine/index.ts';
import type { RuleId } from '../../src/tracker/types.ts';
import { NOISES, type Noise, REAL_HANDS } from '../../simulator/human.ts';
import { SCAN_MS_MAX, SCAN_MS_MIN } from '../../firmware-protocol/events.ts';
import type { Prompt } from '../../firmware-protocol/index.ts';
import {
  answerPrompt,
  type SimTransport,
  type SimulationOptions,
  startSimulation,
  writeGroundTruthGames,
} from '../../simulator/index.ts';
import { INJECTABLE } from '../../simulator/inject.ts';
import { SIM_PROTOCOLS, type SimProtocol } from '../../simulator/protocol.ts';
import { FIELD_MAP_HELP, readBoardDescription } from './board-description.ts';
import { positiveNumber, probability, variantOption, wholeNumber } from './options.ts';
import { usageError, workFailed } from '../failure.ts';
import { progress } from './progress.ts';

interface SimulateFlags {
  pdn?: string;
  boards?: number;
  protocol: SimProtocol;
  transport: SimTransport;
  host: string;
  basePort: number;
  speed: number;
  seed: number;
  noise: Noise;
  inject?: string;
  injectProbability: number;
  resultGesture?: boolean;
  occupancyOnly?: boolean;
  variant: Variant;
  maxPlies?: number;
  thinkMs: number;
  games: number;
  eventsOut?: string;
  ptyDir?: string;
  loop?: boolean;
  json?: boolean;
  fieldMap?: string;
  followPrompts?: string;
  /** Commander's `--no-history`: false. */
  history: boolean;
  realHands?: boolean;
  scanMs?: number;
  scanEvery: number;
}

/** Friendly names for the injections that are not article numbers. */
const ALIASES: Record<string, RuleId | 'result-gesture'> = {
  takeback: '5.4.4',
  'touch-move': '5.4.3',
  rotated: '5.1',
  'removal-order': '4.11',
  'result-gesture': 'result-gesture',
};

function parseInject(text: string): { rules: RuleId[]; gesture: boolean } {
  const rules: RuleId[] = [];
  let gesture = false;
  for (const raw of text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (raw === 'all') {
      rules.push(...INJECTABLE);
      continue;
    }
    const id = ALIASES[raw] ?? raw;
    if (id === 'result-gesture') gesture = true;
    else if ((INJECTABLE as readonly string[]).includes(id)) rules.push(id as RuleId);
    else
      throw usageError(
        `unknown irregularity "${raw}" (one of ${INJECTABLE.join(', ')}, ${Object.keys(ALIASES).join(', ')}, all)`,
      );
  }
  return { rules, gesture };
}

/** The games of `--pdn`: a file that cannot be read or holds an illegal game is a usage error. */
function readPdnGames(path: string): PdnGame[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw usageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  const parsed = parsePdn(text, { file: path });
  if (parsed.errors.length > 0) throw usageError(...parsed.errors.map(formatLocated));
  if (parsed.games.length === 0) throw usageError(`${path}: no games`);
  return parsed.games;
}

/** One line of output: the JSON object with --json, else the text. */
const emitter =
  (json: boolean | undefined) =>
  (text: string, object: Record<string, unknown>): void =>
    console.log(json ? JSON.stringify(object) : text);

async function run(flags: SimulateFlags): Promise<void> {
  const inject = flags.inject ? parseInject(flags.inject) : { rules: [], gesture: false };
  const pdnGames = flags.pdn ? readPdnGames(flags.pdn) : undefined;
  const emit = emitter(flags.json);
  const opts: SimulationOptions = {
    boards: flags.boards ?? pdnGames?.length ?? 1,
    pdnGames,
    protocol: flags.protocol,
    transport: flags.transport,
    host: flags.host,
    basePort: flags.basePort,
    ptyDir: flags.ptyDir,
    speed: flags.speed,
    seed: flags.seed,
    loop: flags.loop,
    gamesPerBoard: flags.games,
    eventsOut: flags.eventsOut,
    protocolOptions: readBoardDescription(flags.fieldMap),
    idle: flags.followPrompts !== undefined,
    history: flags.history,
    ...(flags.scanMs ? { scanning: { every: flags.scanEvery, scanMs: flags.scanMs } } : {}),
    game: {
      ...(flags.realHands ? { habits: REAL_HANDS } : {}),
      variant: flags.variant,
      noise: flags.noise,
      inject: inject.rules,
      injectProbability: flags.injectProbability,
      resultGesture: flags.resultGesture || inject.gesture,
      occupancyOnly: flags.occupancyOnly,
      maxPlies: flags.maxPlies,
      thinkMs: flags.thinkMs,
    },
  };

  if (flags.transport === 'none') {
    if (!flags.eventsOut)
      throw usageError('--transport none writes ground truth only; give --events-out DIR');
    const started = performance.now();
    const bar = progress('simulate', opts.boards ?? 1);
    const games = await writeGroundTruthGames({ ...opts, eventsOut: flags.eventsOut }, () => bar.tick());
    bar.stop();
    const ms = Math.round(performance.now() - started);
    games.forEach((g, i) => {
      const game = {
        board: `board-${i + 1}`,
        plies: g.moves.length,
        result: g.result,
        events: g.events.length,
        injected: g.injected.length,
      };
      const text = `${game.board}  ${game.plies} plies  ${game.result}  ${game.events} events  ${game.injected} injected`;
      emit(text, { type: 'game', ...game });
    });
    const done = { games: games.length, dir: flags.eventsOut, ms };
    emit(`wrote ${done.games} games to ${done.dir} in ${ms} ms`, { type: 'done', ...done });
    return;
  }

  let sim: Awaited<ReturnType<typeof startSimulation>>;
  try {
    sim = await startSimulation(opts);
  } catch (e) {
    throw workFailed((e as Error).message);
  }
  // Listening for the signals before the boards' addresses are printed: who reads them may stop the
  // simulation at once (see run.ts).
  const stop = async () => {
    await sim.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  for (const b of sim.boards) {
    const board = { name: b.name, address: b.address, serial: b.serial, protocol: flags.protocol };
    emit(`${b.name}  ${b.address}  serial ${b.serial}  ${flags.protocol}`, { type: 'board', ...board });
  }
  if (flags.followPrompts !== undefined) {
    await followPrompts(sim, flags.followPrompts, flags.speed);
    return;
  }
  if (!flags.json) {
    console.log(
      flags.transport === 'pty' || flags.protocol === 'dgt'
        ? 'each board starts playing when the host first sends it a command'
        : 'each board starts playing when the host connects',
    );
  }
  await sim.done;
  await sim.stop();
  for (const b of sim.boards) {
    const results = b.board.games.map((g) => g.result);
    emit(`${b.name}  ${results.length} game(s)  ${results.join(' ')}`, {
      type: 'results',
      board: b.name,
      results,
    });
  }
  const stats = sim.stats();
  const late = { events: stats.events, maxLateMs: Math.round(stats.maxLateMs), lateOver50: stats.lateOver50 };
  emit(`${late.events} events, latest ${late.maxLateMs} ms late, ${late.lateOver50} over 50 ms`, {
    type: 'done',
    ...late,
  });
}

/**
 * The first board's person answers the prompts of `damlink calibrate --json` read from `path`
 * (`-`: stdin) until they end or the calibration is over.
 */
async function followPrompts(
  sim: Awaited<ReturnType<typeof startSimulation>>,
  path: string,
  speed: number,
): Promise<void> {
  const input = path === '-' ? process.stdin : createReadStream(path);
  const board = sim.boards[0].board;
  try {
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      let message: { type?: string; prompt?: Prompt };
      try {
        message = JSON.parse(line);
      } catch {
        continue; // not one of the wizard's lines
      }
      if (message.type === 'prompt' && message.prompt) await answerPrompt(board, message.prompt, { speed });
      if (message.type === 'done' || message.type === 'failed') break;
    }
  } finally {
    await sim.stop();
  }
}

export function registerSimulate(program: Command): void {
  program
    .command('simulate')
    .description('Virtual boards that play like people, over tcp, socat PTYs, or ground-truth files only')
    .option('--pdn <file>', 'play the games of this PDN file, one per board (default: seeded self-play)')
    .option(
      '--boards <n>',
      'number of boards (default: one per PDN game, else 1)',
      wholeNumber('--boards', 1),
    )
    .addOption(
      new Option('--protocol <name>', 'firmware protocol').choices([...SIM_PROTOCOLS]).default('line'),
    )
    .addOption(
      new Option('--transport <kind>', 'tcp: a port per board; pty: socat pairs; none: files only')
        .choices(['tcp', 'pty', 'none'])
        .default('tcp'),
    )
    .option('--host <addr>', 'tcp listen address', '127.0.0.1')
    .option(
      '--base-port <p>',
      'first tcp port (board N listens on P+N−1; 0 = any free port)',
      wholeNumber('--base-port', 0, 65535),
      7001,
    )
    .option('--pty-dir <dir>', 'where the PTY links go (default: a temp dir)')
    .option('--speed <x>', 'game time runs X times faster than real time', positiveNumber('--speed'), 1)
    .option('--seed <s>', 'random seed (games, hands, injections)', wholeNumber('--seed', 0), 1)
    .addOption(
      new Option('--noise <level>', 'harmless sensor noise').choices([...NOISES]).default('realistic'),
    )
    .option(
      '--inject <rules>',
      `irregularities, comma-separated: ${INJECTABLE.join(',')}, takeback, touch-move, rotated, result-gesture, all`,
    )
    .option(
      '--inject-probability <p>',
      'chance per ply that one of --inject happens',
      probability('--inject-probability'),
      0.1,
    )
    .option('--result-gesture', 'show the result with kings in the centre after each game')
    .option('--occupancy-only', 'boards that sense occupancy only (no piece colours)')
    .option(
      '--no-history',
      'line boards that remember nothing (protocol 1.0): after a break the daemon searches for the lost moves',
    )
    .option(
      '--real-hands',
      "players' habits: a one-piece capture's piece taken off before the landing, captures swept off by two hands",
    )
    .option(
      '--scan-ms <ms>',
      'boards report by scans of MS ms, in their scan order, as DGT boards do (a DGT board described to the daemon with a shorter scanMs is misread)',
      wholeNumber('--scan-ms', SCAN_MS_MIN, SCAN_MS_MAX),
    )
    .option(
      '--scan-every <n>',
      'with --scan-ms: every N-th board scans (default all)',
      wholeNumber('--scan-every', 1),
      1,
    )
    .addOption(variantOption('self-play variant'))
    .option('--max-plies <n>', 'stop self-played games after N plies', wholeNumber('--max-plies', 1))
    .option('--think-ms <ms>', 'median thinking time per move', positiveNumber('--think-ms'), 2500)
    .option('--games <n>', 'games per board, one after the other', wholeNumber('--games', 1), 1)
    .option('--events-out <dir>', "write each game's ground truth: .jsonl events, .pdn, .injected.json")
    .option('--loop', 'keep playing new games until interrupted')
    .option('--json', 'JSON lines: {"type":"board"|"game"|"results"|"done",…}')
    .option(
      '--field-map <file>',
      `${FIELD_MAP_HELP}: the boards present themselves so (scrambled fields, other piece codes)`,
    )
    .option(
      '--follow-prompts <file>',
      'no game: the first board answers the prompts of `damlink calibrate --json` read from FILE (- for stdin)',
    )
    .action(run);
}
