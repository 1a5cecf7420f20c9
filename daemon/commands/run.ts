// `damlink run`: the daemon an organiser runs in the hall — boards in (controller), games out (server).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import { type ConfigFlags, type LoadedConfig, loadConfig } from '../config/index.ts';
import { JournalLock, type LockAnswer } from '../journal/index.ts';
import { App } from '../app.ts';
import { type DaemonParts, daemonServices } from '../services.ts';
import type { LogFile } from '../log-file.ts';
import { type Logger, openLogger } from '../log.ts';
import { privateDir } from '../data-dir.ts';
import { readTournamentFile } from '../tournament/file.ts';
import type { InProcessBoards } from '../transport/index.ts';
import type { Event } from '../../src/tournament/index.ts';
import { parseTimeControl } from '../../src/clock/time-control.ts';
import { LOG_LEVELS } from '../config/schema.ts';
import { positiveNumber, variantOption, wholeNumber } from './options.ts';
import { usageError, workFailed } from '../failure.ts';

/** The config flags (`--board` repeated instead of `boards`) plus the daemon's own. */
interface RunFlags extends Omit<ConfigFlags, 'boards'> {
  config?: string;
  board: string[];
  logLevel?: string;
  demo?: boolean;
  demoBoards?: number;
  speed: number;
  seed?: number;
  mqtt?: string;
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description(
      'Run the daemon: connect the boards, journal and track every game, serve PDN and the live API.',
    )
    .option('-c, --config <file>', 'config file (YAML or JSON); DAMLINK_CONFIG also works')
    .option(
      '-b, --board <source>',
      'a board: serial:/dev/… or a path, hid:VID:PID[:serial], tcp://host:port (repeat; numbered in order)',
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option('--host <host>', 'address to serve on (default 127.0.0.1; 0.0.0.0 to share)')
    .option(
      '-p, --port <n>',
      'HTTP + WebSocket port (default 8080; 0 = any free port)',
      wholeNumber('--port', 0, 65535),
    )
    .option('-d, --data-dir <dir>', 'journal and logs (default ./data)')
    .option('-r, --round <n>', 'round number (default 1)', wholeNumber('--round', 1))
    .option('--event <name>', 'event name for the PDN')
    .option('--tournament <file>', "players and pairings: damlink's JSON, a CSV of players, or a TRF")
    .option(
      '--pairing-program <command>',
      "pairs Swiss rounds from the console: program and arguments, {in} the TRF, {out} the pairs (without {in}: bbpPairings' --dutch {in} -p {out} added)",
    )
    .option('--tournament-name <name>', "the tournament's name where its file gives none (tournament.name)")
    .option(
      '--rounds <n>',
      'rounds planned, for the pairing program (tournament.rounds; default 7)',
      wholeNumber('--rounds', 1, 99),
    )
    .option(
      '--groups <list>',
      "the groups in table order, comma-separated: a player's group must be one of them (tournament.groups)",
      (v: string) =>
        v
          .split(',')
          .map((g) => g.trim())
          .filter(Boolean),
    )
    .addOption(
      new Option(
        '--first-colour <colour>',
        "the top seed's colour in round 1 (tournament.firstColour; default lot)",
      ).choices(['white', 'black', 'lot']),
    )
    .addOption(variantOption('rules variant (default: the config, else international)').default(undefined))
    .option('--auto-result', 'write the result the engine proposes without waiting for the arbiter')
    .addOption(
      new Option('--log-level <level>', 'log level (default: the config, else info)').choices([
        ...LOG_LEVELS,
      ]),
    )
    .option('--mqtt <url>', 'publish to this MQTT broker (mqtt://host:1883; wins over the config file)')
    .option('--demo', 'no hardware: simulated boards play in this process (what `npm start` runs)')
    .option(
      '--demo-boards <n>',
      "boards in the demo (default: the config's boards, else 8)",
      wholeNumber('--demo-boards', 1),
    )
    .option('--speed <x>', 'demo game speed (1 = human pace)', positiveNumber('--speed'), 3)
    .option('--seed <n>', 'demo seed (default: a new one each start)', wholeNumber('--seed'))
    .option(
      '--time-scale <x>',
      'simulated boards only: run the clock x times faster (as the simulator --speed)',
      positiveNumber('--time-scale'),
    )
    .addHelpText(
      'after',
      '\nEvery config key can also be set as DAMLINK_<KEY> (nested keys with __, e.g. DAMLINK_TOKENS__ARBITER).\n' +
        'Without tokens, an admin token is made in the data directory and the console address is printed with it.\n' +
        'Examples:\n  damlink run --board tcp://127.0.0.1:7001 --board /dev/ttyUSB0\n  damlink run --config hall.yaml --round 3\n',
    )
    .action(run);
}

async function run(flags: RunFlags): Promise<void> {
  // Read before anything starts (the demo's boards): a bad file stops here.
  const fromFlag = flags.tournament === undefined ? undefined : readTournamentFile(flags.tournament);
  const cfgFlags: ConfigFlags = {
    tournament: flags.tournament,
    pairingProgram: flags.pairingProgram,
    tournamentName: flags.tournamentName,
    rounds: flags.rounds,
    groups: flags.groups,
    firstColour: flags.firstColour,
    boards: flags.board,
    host: flags.host,
    port: flags.port,
    dataDir: flags.dataDir,
    round: flags.round,
    event: flags.event,
    variant: flags.variant,
    autoResult: flags.autoResult,
    timeScale: flags.timeScale,
  };
  let demo: Awaited<ReturnType<typeof startDemo>> | undefined;
  /** The demo's own data directory (no config nor flag gave one): removed when the demo stops. */
  let demoDir: string | undefined;
  let defaults: ConfigFlags = {};
  if (flags.demo) {
    // A rehearsal is the real thing with simulated boards: everything the config says (its data
    // directory, event, publishing, tournament, time control) stays; only the boards are replaced.
    // (A config that does not load is refused with its errors below.)
    const planned = loadConfig({ file: flags.config, env: process.env, flags: cfgFlags });
    const plan = planned.ok ? planned.value : undefined;
    demo = await startDemo(flags, {
      boards: flags.demoBoards ?? (plan && plan.setups.length > 0 ? plan.setups.length : DEMO_BOARDS),
      timeControl: plan?.timeControl,
    });
    cfgFlags.boards = demo.sources;
    // The demo's own journal (a fresh one each demo) only where nothing names one.
    demoDir = mkdtempSync(join(tmpdir(), 'damlink-demo-'));
    defaults = { event: 'Demo', dataDir: demoDir, timeScale: flags.speed };
  }
  try {
    await runWith(flags, cfgFlags, fromFlag, demo, defaults);
  } finally {
    if (demoDir) rmSync(demoDir, { recursive: true, force: true });
  }
}

async function runWith(
  flags: RunFlags,
  cfgFlags: ConfigFlags,
  fromFlag: Event | undefined,
  demo: Awaited<ReturnType<typeof startDemo>> | undefined,
  defaults: ConfigFlags,
): Promise<void> {
  const loaded = loadConfig({ file: flags.config, env: process.env, flags: cfgFlags, defaults });
  if (!loaded.ok) {
    await demo?.stop();
    throw usageError(...loaded.error);
  }
  const config = loaded.value;
  const file = config.tournament.file;
  let tournament = fromFlag;
  if (tournament === undefined && file !== undefined) {
    try {
      tournament = readTournamentFile(file);
    } catch (e) {
      await demo?.stop();
      throw e;
    }
  }
  if (config.setups.length === 0) {
    throw usageError('no boards: give --board SOURCE (repeatable), a config file with boards:, or --demo');
  }
  // Before anything is written there, the log file included.
  const lock = await takeLock(resolve(config.dataDir), demo);
  const { log, file: logFile } = openLogger({
    dataDir: config.dataDir,
    level: flags.logLevel ?? config.log.level,
  });
  for (const warning of config.warnings) {
    console.error(`damlink: warning: ${warning}`);
    log.warn(warning);
  }
  await serve(config, lock, log, logFile, demo, tournament, flags.mqtt);
}

/** The simulated clock of a time control: its first period's time and Fischer increment. */
function clockOf(text: string): { baseMs: number; incrementMs: number } | undefined {
  const control = parseTimeControl(text);
  const first = control.ok ? control.value.periods[0] : undefined;
  if (!first) return undefined;
  return {
    baseMs: first.seconds * 1000,
    incrementMs: first.bonus?.kind === 'increment' ? first.bonus.seconds * 1000 : 0,
  };
}

/** Boards in a demo without a config that has boards. */
const DEMO_BOARDS = 8;

/** The demo's scanning boards read their fields every 250 ms (their hello says so). */
const DEMO_SCAN_MS = 250;

async function startDemo(
  flags: RunFlags,
  plan: { boards: number; timeControl?: string },
): Promise<{ sources: string[]; boards: InProcessBoards; stop(): Promise<void> }> {
  const { startSimulation, connectInProcess } = await import('../../simulator/index.ts');
  const { REAL_HANDS } = await import('../../simulator/human.ts');
  const clock = plan.timeControl === undefined ? undefined : clockOf(plan.timeControl);
  const sim = await startSimulation({
    boards: plan.boards,
    transport: 'memory',
    speed: flags.speed,
    seed: flags.seed ?? Math.floor(Math.random() * 2 ** 31),
    loop: true,
    // Real hands on every board, and every fourth board one that reports by scans (as DGT boards do).
    scanning: { every: 4, scanMs: DEMO_SCAN_MS },
    game: {
      noise: 'realistic',
      habits: REAL_HANDS,
      inject: ['5.4.6', '5.4.1', '4.11', '5.4.9'],
      injectProbability: 0.02,
      // The players' clocks keep the event's time control (the simulator's first period).
      ...(clock ? { clock } : {}),
    },
  });
  const firstStream = new Map(sim.boards.map((b) => [b.name, b.stream]));
  return {
    sources: sim.boards.map((b) => `sim:${b.name}`),
    boards: {
      connect(name) {
        const entry = sim.boards.find((b) => b.name === name);
        if (!entry) throw new Error(`no simulated board ${name}`);
        const first = firstStream.get(name);
        firstStream.delete(name);
        return first && !first.destroyed ? first : connectInProcess(entry.board);
      },
    },
    stop: () => sim.stop(),
  };
}

/**
 * The daemon: its services started in order (daemon/services.ts), what an organiser needs printed,
 * then running until SIGINT or SIGTERM stops them. Exits 1 when board inputs could not be journaled.
 */
async function serve(
  config: LoadedConfig,
  lock: JournalLock,
  log: Logger,
  logFile: LogFile | undefined,
  demo: { boards: InProcessBoards; stop(): Promise<void> } | undefined,
  tournamentFile?: Event,
  mqttUrl?: string,
): Promise<void> {
  const app = new App();
  // Running before the app: the simulator (its boards are in the config), the lock and the log file.
  if (demo) app.adopt({ name: 'simulator', stopIn: 'goodbye', start: () => {}, stop: () => demo.stop() });
  app.adopt({ name: 'lock', stopIn: 'storage', start: () => {}, stop: () => lock.release() });
  if (logFile)
    app.adopt({
      name: 'log',
      stopIn: 'storage',
      start: () => {},
      stop: () => {},
      health: () => ({ log: logFile.health() }),
    });
  const { services, parts } = daemonServices({
    config,
    log,
    inProcess: demo?.boards,
    tournamentFile,
    mqttUrl,
    health: () => app.health(),
  });
  await app.start(services);
  // Listening for the signals before the address is printed: who reads it may stop the daemon at
  // once, and a signal with no listener yet ends the process without the stop (no games kept, no
  // images, the log unflushed).
  const stopped = new Promise<void>((done) => {
    let stopping = false;
    const stop = async (signal: string): Promise<void> => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'stopping');
      const { timeoutMs } = parts.config.shutdown;
      const { late } = await app.stop(timeoutMs);
      if (late.length > 0) {
        log.warn({ timeoutMs, waiting: late }, `stopped without waiting longer for: ${late.join(', ')}`);
        // What still waits (a broker that stopped answering) would keep the process alive.
        setTimeout(() => process.exit(), 100).unref();
      }
      done();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
  printAddresses(parts);
  await stopped;
  if (parts.unjournaled > 0) {
    throw workFailed(
      `stopped with ${parts.unjournaled} board inputs the journal could not write (the boards' next dump brings their positions back)`,
    );
  }
}

/** Where the round is served, the tournament, and how the arbiter gets in. */
function printAddresses(parts: DaemonParts): void {
  const { config, server, access, tournament } = parts;
  const url = server!.url;
  const boards = config.setups.length;
  console.log(
    `damlink: round ${config.round}, ${boards} board${boards === 1 ? '' : 's'}, journal ${parts.journalPath}`,
  );
  if (tournament?.event) {
    const { name, players } = tournament.event;
    console.log(
      `damlink: tournament ${name ? `"${name}", ` : ''}${players.length} players (${url}/tournament.html)`,
    );
  }
  console.log(
    `damlink: open ${url}/  (arbiter: ${url}/arbiter, PDN: ${url}/rounds/${config.round}/games.pdn)`,
  );
  // As Jupyter does: the daemon's own token travels in the address (after #, so it is never sent
  // in a request or kept in a server log); a configured token is the organiser's to hand out.
  // Printed once, when the token is made: at later starts it would go into the system journal
  // (systemd keeps what a service prints) each time; `damlink token` prints it again.
  if (access?.made?.created)
    console.log(
      `damlink: arbiter console ${url}/arbiter#token=${access.made.token}  (admin token in ${access.made.file})`,
    );
  else if (access?.made)
    console.log(
      `damlink: arbiter console ${url}/arbiter  (its address with the admin token: damlink token --data-dir ${config.dataDir})`,
    );
}

/** The data directory's one-writer lock, or exit 2 naming the daemon that holds it. */
async function takeLock(dir: string, demo: { stop(): Promise<void> } | undefined): Promise<JournalLock> {
  let taken: LockAnswer;
  try {
    privateDir(dir);
    taken = JournalLock.take(dir);
  } catch (e) {
    await demo?.stop();
    throw workFailed(`cannot lock the data directory ${dir}: ${(e as Error).message}`);
  }
  if (taken.ok) return taken.lock;
  await demo?.stop();
  throw usageError(
    `another damlink${taken.pid ? ` (pid ${taken.pid})` : ''} is running on the data directory ${dir}: stop it, or give this one another --data-dir`,
  );
}
