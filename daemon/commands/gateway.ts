// `damlink gateway`: serves spectators what the daemons of an event publish on an MQTT broker —
// the same files, JSON API, WebSocket API and viewer as a daemon, without boards or a journal.
import { accessSync, constants, readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { loadConfig } from '../config/index.ts';
import { type Config, LOG_LEVELS, mqttSchema, mqttSettings } from '../config/schema.ts';
import { createLogger } from '../log.ts';
import { BUILT_IN_WEB_ROOT } from '../server/languages.ts';
import type { MqttSettings } from '../server/mqtt.ts';
import { wholeNumber } from './options.ts';
import { usageError, workFailed } from '../failure.ts';

interface GatewayFlags {
  config?: string;
  mqtt?: string;
  baseTopic?: string;
  host: string;
  port: number;
  mqttUsername?: string;
  mqttPasswordFile?: string;
  mqttCa?: string;
  mqttCert?: string;
  mqttKey?: string;
  logLevel: string;
  daemon: string[];
}

export function registerGateway(program: Command): void {
  program
    .command('gateway')
    .description('Serve spectators from an MQTT broker the daemons publish to (no boards, no journal).')
    .option('--mqtt <url>', 'the broker (mqtt://host:1883, mqtts://host:8883); wins over the config file')
    .option('-c, --config <file>', "a config file: its mqtt: section (the daemon's own file will do)")
    .option(
      '--base-topic <topic>',
      "first level of the daemons' topics (default: the config's, else damlink)",
    )
    .option(
      '--daemon <url>',
      "a daemon (its http://host:port) the gateway may ask for events the broker lost (repeat); none: it waits for the daemon's next state",
      (v: string, all: string[]) => {
        if (!/^https?:\/\/[^/\s]+\/?$/.test(v))
          throw usageError(`--daemon: "${v}" is not an http://host:port address`);
        return [...all, v];
      },
      [] as string[],
    )
    .option('--host <host>', 'address to serve on (0.0.0.0 to share)', '127.0.0.1')
    .option(
      '-p, --port <n>',
      'HTTP + WebSocket port (0 = any free port)',
      wholeNumber('--port', 0, 65535),
      8081,
    )
    .option('--mqtt-username <name>', 'broker login')
    .option('--mqtt-password-file <file>', 'a file holding the broker password (its first line)')
    .option('--mqtt-ca <file>', "PEM file of the CA that signed the broker's certificate")
    .option('--mqtt-cert <file>', 'PEM client certificate, for a broker that asks for one')
    .option('--mqtt-key <file>', 'PEM key of the client certificate')
    .addOption(new Option('--log-level <level>', 'log level').choices([...LOG_LEVELS]).default('info'))
    .addHelpText(
      'after',
      '\nEvery mqtt: key can also come from the environment (DAMLINK_MQTT__PASSWORD=…).\n' +
        '\nExamples:\n  damlink gateway --mqtt mqtt://broker.local:1883 --host 0.0.0.0 --port 8081\n' +
        '  damlink gateway --mqtt mqtts://broker.example:8883 --mqtt-ca ca.pem \\\n' +
        '    --mqtt-username gw --mqtt-password-file /etc/damlink/mqtt-password\n' +
        '  damlink gateway --config hall.yaml --port 8081\n',
    )
    .action(gateway);
}

/** The first line of a secret file (what `echo secret > file` leaves). */
function readSecret(path: string): string {
  try {
    return readFileSync(path, 'utf8').split(/\r?\n/)[0];
  } catch (e) {
    throw usageError(`--mqtt-password-file: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** The config file's settings (and `DAMLINK_…`), checked. */
function gatewayConfig(flags: GatewayFlags): Config {
  const loaded = loadConfig({ file: flags.config, env: process.env });
  if (!loaded.ok) throw usageError(...loaded.error);
  return loaded.value;
}

/**
 * The broker settings: the config's `mqtt:` (file and `DAMLINK_MQTT__…`), the flags over it,
 * checked by the same schema. The daemon's client id is not taken: two clients with one id push
 * each other off the broker.
 */
export function gatewayBroker(flags: GatewayFlags, config = gatewayConfig(flags)): MqttSettings {
  const { clientId: _daemons, ...configured } = mqttSettings(config) ?? {};
  const given = {
    url: flags.mqtt,
    baseTopic: flags.baseTopic,
    username: flags.mqttUsername,
    password: flags.mqttPasswordFile === undefined ? undefined : readSecret(flags.mqttPasswordFile),
    ca: flags.mqttCa,
    cert: flags.mqttCert,
    key: flags.mqttKey,
  };
  const merged = {
    ...configured,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  };
  if (merged.url === undefined)
    throw usageError('no broker: give --mqtt URL, or --config with mqtt: { url }');
  const checked = mqttSchema.safeParse(merged);
  if (!checked.success)
    throw usageError(...checked.error.issues.map((i) => `mqtt.${i.path.join('.')}: ${i.message}`));
  for (const [name, path] of [
    ['--mqtt-ca', checked.data.ca],
    ['--mqtt-cert', checked.data.cert],
    ['--mqtt-key', checked.data.key],
  ] as const) {
    if (path === undefined) continue;
    try {
      accessSync(path, constants.R_OK);
    } catch (e) {
      throw usageError(`${name}: cannot read ${path}: ${(e as Error).message}`);
    }
  }
  return checked.data;
}

async function gateway(flags: GatewayFlags): Promise<void> {
  const config = gatewayConfig(flags);
  const mqtt = gatewayBroker(flags, config);
  const { limits } = config;
  const log = createLogger({ level: flags.logLevel });
  // Loaded here: the mqtt package costs start-up time every other command would pay.
  const { startGateway } = await import('../gateway/index.ts');
  let running: Awaited<ReturnType<typeof startGateway>>;
  try {
    running = await startGateway({
      mqtt,
      host: flags.host,
      port: flags.port,
      webRoot: BUILT_IN_WEB_ROOT,
      log,
      daemons: flags.daemon,
      boardBytes: limits.gatewayBoardBytes,
      limits: {
        connections: limits.connections,
        connectionsPerAddress: limits.connectionsPerAddress,
        maxBuffered: limits.clientBuffer,
        unsentBudget: limits.unsentBytes,
        catchUpBytesPerSecond: limits.catchUpBytesPerSecond,
      },
    });
  } catch (e) {
    throw workFailed(`cannot serve on ${flags.host}:${flags.port}: ${(e as Error).message}`);
  }
  // Listening for the signals before the address is printed (see run.ts).
  const stopped = new Promise<void>((done) => {
    const stop = () => void running.close().finally(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  console.log(`damlink: open ${running.server.url}/  (a gateway for ${mqtt.baseTopic}/# on the broker)`);
  await stopped;
}
