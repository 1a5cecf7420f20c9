// The services `damlink run` is made of (daemon/app.ts), in the order they start: the journal, the
// tokens, the tournament with its round's boards rebuilt, the server (HTTP, WebSocket), the broker
// (MQTT), the boards' links, publishing. Each keeps what it made in `DaemonParts`, for the ones
// after it and for what the command prints; each failure is the daemon's, with the message an
// organiser acts on.
import { resolve } from 'node:path';
import type { Service } from './app.ts';
import { openProfileStore } from './calibration/profiles.ts';
import type { LoadedConfig } from './config/index.ts';
import { mqttSettings } from './config/schema.ts';
import { Controller } from './controller.ts';
import { privateFiles } from './data-dir.ts';
import { workFailed } from './failure.ts';
import { Journal } from './journal/index.ts';
import type { Logger } from './log.ts';
import type { Publishing } from './publish/index.ts';
import { effectiveTokens } from './server/admin-token.ts';
import { startServer } from './server/index.ts';
import { BUILT_IN_WEB_ROOT } from './server/languages.ts';
import { DEFAULT_BASE_TOPIC, defaultClientId } from './server/mqtt-topics.ts';
import type { MqttBridge, MqttSettings } from './server/mqtt.ts';
import { announcingChanges, liveTournament, tournamentReachesBoards } from './tournament/live.ts';
import { type PairingSettings, withPairingProgram } from './tournament/pairing-program.ts';
import type { RoundSwitch } from './tournament/round-switch.ts';
import { startTournament } from './tournament/start.ts';
import type { InProcessBoards } from './transport/index.ts';
import type { Event } from '../src/tournament/index.ts';
import { createTracker } from '../src/tracker/index.ts';

export interface DaemonOptions {
  config: LoadedConfig;
  log: Logger;
  /** The simulated boards of a demo, in this process. */
  inProcess?: InProcessBoards;
  /** A tournament file given at the start (`--tournament`). */
  tournamentFile?: Event;
  /** `--mqtt`: the broker's URL over the config's. */
  mqttUrl?: string;
  /** More facts for /health (the log file's, the services'). */
  health(): Record<string, unknown>;
}

/** What the services made, as they start. */
export interface DaemonParts {
  config: LoadedConfig;
  journalPath: string;
  journal?: Journal;
  access?: ReturnType<typeof effectiveTokens>;
  tournament?: ReturnType<typeof startTournament>;
  controller?: RoundSwitch;
  server?: Awaited<ReturnType<typeof startServer>>;
  mqtt?: MqttBridge;
  publishing?: Publishing;
  /** Board inputs the journal could not write, counted when the boards stopped. */
  unjournaled: number;
}

export function daemonServices(options: DaemonOptions): { services: Service[]; parts: DaemonParts } {
  const { log } = options;
  const parts: DaemonParts = {
    config: options.config,
    journalPath: resolve(options.config.dataDir, 'journal.sqlite'),
    unjournaled: 0,
  };
  const services: Service[] = [
    journalService(parts),
    {
      name: 'tokens',
      stopIn: 'storage',
      start: () => {
        const { config } = parts;
        try {
          parts.access = effectiveTokens(config.tokens, config.dataDir);
        } catch (e) {
          throw workFailed(`cannot keep the admin token in ${config.dataDir}: ${(e as Error).message}`);
        }
      },
      stop: () => {},
    },
    tournamentService(parts, options),
    serverService(parts, options),
    mqttService(parts, options),
    {
      name: 'boards',
      stopIn: 'inputs',
      start: () => parts.controller!.start(),
      stop: () => {
        parts.unjournaled = parts.controller!.stop();
      },
    },
    publishService(parts, log),
  ];
  return { services, parts };
}

function journalService(parts: DaemonParts): Service {
  return {
    name: 'journal',
    stopIn: 'storage',
    start: () => {
      const path = parts.journalPath;
      try {
        parts.journal = Journal.open(path, { backgroundCheckpoints: true });
        // SQLite gives the -wal and -shm files the journal's own mode.
        privateFiles(path, `${path}-wal`, `${path}-shm`, resolve(parts.config.dataDir, 'damlink.log'));
      } catch (e) {
        parts.journal?.close();
        throw workFailed(`cannot open the journal ${path}: ${(e as Error).message}`);
      }
    },
    stop: () => parts.journal?.close(),
  };
}

/** The tournament the journal keeps sets the round; the round's boards are rebuilt from the journal. */
function tournamentService(parts: DaemonParts, options: DaemonOptions): Service {
  return {
    name: 'tournament',
    stopIn: 'inputs',
    start: () => {
      const { log } = options;
      const journal = parts.journal!;
      let config = parts.config;
      if (config.mqttUrl)
        log.warn(
          config.mqtt
            ? 'mqttUrl is ignored beside mqtt: { url: … }'
            : 'mqttUrl is deprecated: write mqtt: { url: … } instead',
        );
      const { store: profiles, problems } = openProfileStore(config.dataDir);
      for (const problem of problems) log.warn({ problem }, 'board profile not used');
      if (profiles.bySerial.size > 0) log.info({ serials: [...profiles.bySerial.keys()] }, 'board profiles');
      const tournament = startTournament(journal, config, options.tournamentFile);
      config = { ...config, round: tournament.config.round };
      parts.config = config;
      parts.tournament = tournament;
      // A long round takes seconds to rebuild: the one who started the daemon is told what it is doing.
      const entries = journal.roundEntries(config.round);
      const rebuilding = performance.now();
      if (entries > 0)
        console.log(
          `damlink: rebuilding round ${config.round} from the journal (${entries.toLocaleString('en')} entries)…`,
        );
      let first: Controller | undefined;
      parts.controller = liveTournament({
        config,
        store: tournament.store,
        controller: (round) => {
          const controller = new Controller({
            config: round,
            journal,
            createTracker,
            transport: { inProcess: options.inProcess },
            profiles,
            logger: log,
            timeScale: config.timeScale,
            journalBacklog: config.journal.backlog,
            searchShare: config.gapSearch.share,
          });
          first ??= controller;
          return controller;
        },
      });
      if (entries > 0) {
        const { boards, restored } = first?.rebuilt ?? { boards: 0, restored: 0 };
        console.log(
          `damlink: round ${config.round} rebuilt in ${((performance.now() - rebuilding) / 1000).toFixed(1)} s (${restored} of ${boards} boards from their images)`,
        );
      }
    },
    // The boards' service stops the round's links; a round never started has nothing to stop.
    stop: () => {},
  };
}

function serverService(parts: DaemonParts, options: DaemonOptions): Service {
  return {
    name: 'server',
    stopIn: 'goodbye',
    start: async () => {
      const { config } = parts;
      const controller = parts.controller!;
      const tournament = parts.tournament!;
      try {
        parts.server = await startServer({
          hub: controller,
          host: config.host,
          port: config.port,
          tokens: parts.access!.tokens,
          allowedOrigins: config.allowedOrigins,
          allowedHosts: config.allowedHosts,
          publicPersonalData: config.tournament.publicPersonalData,
          limits: {
            connections: config.limits.connections,
            connectionsPerAddress: config.limits.connectionsPerAddress,
            maxBuffered: config.limits.clientBuffer,
            unsentBudget: config.limits.unsentBytes,
            catchUpBytesPerSecond: config.limits.catchUpBytesPerSecond,
          },
          webRoot: BUILT_IN_WEB_ROOT,
          log: options.log,
          health: options.health,
          // Publishing follows the tournament too: a result typed for a past round goes out again.
          tournament: announcingChanges(
            tournamentReachesBoards(
              withPairingProgram(tournament.store, pairingSettings(config)),
              controller,
            ),
            () => parts.publishing?.changed(),
          ),
        });
      } catch (e) {
        throw workFailed(`cannot serve on ${config.host}:${config.port}: ${(e as Error).message}`);
      }
    },
    stop: () => parts.server?.close(),
  };
}

/** The broker: the boards' events and PDN published, this daemon announced (`mqtt:` or `--mqtt`). */
function mqttService(parts: DaemonParts, options: DaemonOptions): Service {
  return {
    name: 'mqtt',
    stopIn: 'goodbye',
    start: async () => {
      const settings = brokerSettings(parts.config, options.mqttUrl);
      if (!settings) return;
      // Loaded only when a broker is configured: the mqtt package costs ~300 ms of start-up.
      const { redactUrl, startMqttBridge } = await import('./server/mqtt.ts');
      try {
        parts.mqtt = await startMqttBridge({
          hub: parts.controller!,
          ...settings,
          apiUrl: parts.server!.apiUrl,
          log: options.log,
        });
      } catch (e) {
        // A board another online daemon holds: its message says which, and what to do.
        if (e instanceof Error && e.name === 'BoardHeldError') throw workFailed(e.message);
        throw workFailed(`cannot publish to ${redactUrl(settings.url)}: ${(e as Error).message}`);
      }
    },
    stop: () => parts.mqtt?.close(),
  };
}

function publishService(parts: DaemonParts, log: Logger): Service {
  return {
    name: 'publish',
    stopIn: 'goodbye',
    start: async () => {
      const { config } = parts;
      if (!config.publish) return;
      // Loaded only when publishing is configured: the SSH and FTP clients cost start-up time.
      const { startPublishing } = await import('./publish/index.ts');
      parts.publishing = startPublishing({
        hub: parts.controller!,
        config: config.publish,
        log,
        tournament: parts.tournament!.store,
      });
      for (const t of parts.publishing.state()) console.log(`damlink: publishing to ${t.target}`);
    },
    stop: () => parts.publishing?.stop(),
    health: () => (parts.publishing ? { publish: parts.publishing.state() } : {}),
  };
}

/** `mqtt:` of the config with `--mqtt` over its URL, and this daemon's own client id by default. */
function brokerSettings(config: LoadedConfig, url: string | undefined): MqttSettings | undefined {
  const file = mqttSettings(config);
  const settings = url ? { baseTopic: DEFAULT_BASE_TOPIC, ...file, url } : file;
  return settings && { clientId: defaultClientId(resolve(config.dataDir)), ...settings };
}

/** The pairing program and what it needs to know, from the config's `tournament:` (and its flags). */
function pairingSettings(config: LoadedConfig): PairingSettings | undefined {
  const t = config.tournament;
  if (t.pairingProgram === undefined) return undefined;
  return {
    command: t.pairingProgram,
    ...(t.rounds !== undefined ? { rounds: t.rounds } : {}),
    firstColour: t.firstColour,
    groupsTogether: t.groupsTogether,
    clubsApart: t.clubsApart,
    keepApart: t.keepApart,
  };
}
