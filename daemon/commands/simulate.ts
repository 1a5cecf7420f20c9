// `damlink simulate`: virtual boards that play like people (seeded self-play or PDN games) over tcp,
// socat PTYs or not at all (`--transport none --events-out DIR`: ground-truth files only).
import { positiveNumber, wholeNumber } from './options.ts';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type Command, Option } from 'commander';
import { formatLocated } from '../../src/result.ts';
import { isVariant, type PdnGame, parsePdn, type Variant } from '../../src/engine/index.ts';
import type { RuleId } from '../../src/tracker/types.ts';
import { NOISES, type Noise } from '../../simulator/human.ts';
import {
  type SimTransport,
  type SimulationOptions,
  startSimulation,
  writeGroundTruthGames,
} from '../../simulator/index.ts';
import { INJECTABLE } from '../../simulator/inject.ts';
import { SIM_PROTOCOLS, type SimProtocol } from '../../simulator/protocol.ts';

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
}

/** Friendly names for the injections that are not article numbers. */
const ALIASES: Record<string, RuleId | 'result-gesture'> = {
  takeback: '5.4.4',
  'touch-move': '5.4.3',
  rotated: '5.1',
  'removal-order': '4.11',
  'result-gesture': 'result-gesture',
};

function parseInject(text: string): { rules: RuleId[]; gesture: boolean } | string {
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
      return `unknown irregularity "${raw}" (one of ${INJECTABLE.join(', ')}, ${Object.keys(ALIASES).join(', ')}, all)`;
  }
  return { rules, gesture };
}

function readPdnGames(path: string): PdnGame[] | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return `cannot read ${path}: ${(e as Error).message}`;
  }
  const parsed = parsePdn(text, { file: path });
  if (parsed.errors.length > 0) return parsed.errors.map(formatLocated).join('\n');
  if (parsed.games.length === 0) return `${path}: no games`;
  return parsed.games;
}

async function run(flags: SimulateFlags): Promise<number> {
  const inject = flags.inject ? parseInject(flags.inject) : { rules: [], gesture: false };
  if (typeof inject === 'string') {
    console.error(`damlink simulate: ${inject}`);
    return 2;
  }
  const pdnGames = flags.pdn ? readPdnGames(flags.pdn) : undefined;
  if (typeof pdnGames === 'string') {
    console.error(`damlink simulate: ${pdnGames}`);
    return 2;
  }
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
    game: {
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
    if (!flags.eventsOut) {
      console.error('damlink simulate: --transport none writes ground truth only; give --events-out DIR');
      return 2;
    }
    const started = performance.now();
    const games = await writeGroundTruthGames({ ...opts, eventsOut: flags.eventsOut });
    const ms = performance.now() - started;
    games.forEach((g, i) => {
      const summary = `${g.moves.length} plies  ${g.result}  ${g.events.length} events  ${g.injected.length} injected`;
      console.log(`board-${i + 1}  ${summary}`);
    });
    console.log(`wrote ${games.length} games to ${flags.eventsOut} in ${Math.round(ms)} ms`);
    return 0;
  }

  let sim: Awaited<ReturnType<typeof startSimulation>>;
  try {
    sim = await startSimulation(opts);
  } catch (e) {
    console.error(`damlink simulate: ${(e as Error).message}`);
    return 1;
  }
  for (const b of sim.boards) console.log(`${b.name}  ${b.address}  serial ${b.serial}  ${flags.protocol}`);
  console.log(
    flags.transport === 'pty' || flags.protocol === 'dgt'
      ? 'each board starts playing when the host first sends it a command'
      : 'each board starts playing when the host connects',
  );
  const stop = async () => {
    await sim.stop();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await sim.done;
  await sim.stop();
  for (const b of sim.boards) {
    const results = b.board.games.map((g) => g.result).join(' ');
    console.log(`${b.name}  ${b.board.games.length} game(s)  ${results}`);
  }
  const stats = sim.stats();
  console.log(
    `${stats.events} events, latest ${Math.round(stats.maxLateMs)} ms late, ${stats.lateOver50} over 50 ms`,
  );
  return 0;
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
      wholeNumber('--base-port', 0),
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
      positiveNumber('--inject-probability'),
      0.1,
    )
    .option('--result-gesture', 'show the result with kings in the centre after each game')
    .option('--occupancy-only', 'boards that sense occupancy only (no piece colours)')
    .addOption(
      new Option('--variant <name>', 'self-play variant')
        .choices(['international', 'brazilian'])
        .default('international'),
    )
    .option('--max-plies <n>', 'stop self-played games after N plies', wholeNumber('--max-plies', 1))
    .option('--think-ms <ms>', 'median thinking time per move', positiveNumber('--think-ms'), 2500)
    .option('--games <n>', 'games per board, one after the other', wholeNumber('--games', 1), 1)
    .option('--events-out <dir>', "write each game's ground truth: .jsonl events, .pdn, .injected.json")
    .option('--loop', 'keep playing new games until interrupted')
    .action(async (flags: SimulateFlags) => {
      process.exitCode = isVariant(flags.variant) ? await run(flags) : 2;
    });
}
