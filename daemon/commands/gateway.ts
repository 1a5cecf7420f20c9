// `damlink gateway`: serves spectators what the daemons of an event publish on an MQTT broker —
// the same files, JSON API, WebSocket API and viewer as a daemon, without boards or a journal.
import { type Command, Option } from 'commander';
import { LOG_LEVELS } from '../config/schema.ts';
import { createLogger } from '../log.ts';
import { DEFAULT_BASE_TOPIC } from '../server/mqtt-topics.ts';
import { wholeNumber } from './options.ts';
import { usageError, workFailed } from './program.ts';
import { BUILT_IN_WEB_ROOT } from '../server/languages.ts';

interface GatewayFlags {
  mqtt: string;
  baseTopic: string;
  host: string;
  port: number;
  username?: string;
  logLevel: string;
}

export function registerGateway(program: Command): void {
  program
    .command('gateway')
    .description('Serve spectators from an MQTT broker the daemons publish to (no boards, no journal).')
    .requiredOption('--mqtt <url>', 'the broker (mqtt://host:1883)')
    .option('--base-topic <topic>', "first level of the daemons' topics", DEFAULT_BASE_TOPIC)
    .option('--host <host>', 'address to serve on (0.0.0.0 to share)', '127.0.0.1')
    .option(
      '-p, --port <n>',
      'HTTP + WebSocket port (0 = any free port)',
      wholeNumber('--port', 0, 65535),
      8081,
    )
    .option('--username <name>', 'broker login (the password from DAMLINK_MQTT_PASSWORD)')
    .addOption(new Option('--log-level <level>', 'log level').choices([...LOG_LEVELS]).default('info'))
    .addHelpText(
      'after',
      '\nExample:\n  damlink gateway --mqtt mqtt://broker.local:1883 --host 0.0.0.0 --port 8081\n',
    )
    .action(gateway);
}

async function gateway(flags: GatewayFlags): Promise<void> {
  if (!/^(mqtts?|wss?):\/\/./.test(flags.mqtt))
    throw usageError(`--mqtt: expected mqtt://host:port, got "${flags.mqtt}"`);
  if (!/^[^#+\s]+$/.test(flags.baseTopic))
    throw usageError('--base-topic: a topic without wildcards or spaces');
  const password = process.env.DAMLINK_MQTT_PASSWORD;
  const log = createLogger({ level: flags.logLevel });
  // Loaded here: the mqtt package costs start-up time every other command would pay.
  const { startGateway } = await import('../gateway/index.ts');
  let running: Awaited<ReturnType<typeof startGateway>>;
  try {
    running = await startGateway({
      mqtt: {
        url: flags.mqtt,
        baseTopic: flags.baseTopic,
        ...(flags.username !== undefined ? { username: flags.username } : {}),
        ...(password !== undefined ? { password } : {}),
      },
      host: flags.host,
      port: flags.port,
      webRoot: BUILT_IN_WEB_ROOT,
      log,
    });
  } catch (e) {
    throw workFailed(`cannot serve on ${flags.host}:${flags.port}: ${(e as Error).message}`);
  }
  console.log(`damlink: open ${running.server.url}/  (a gateway for ${flags.baseTopic}/# on the broker)`);
  await new Promise<void>((done) => {
    const stop = () => void running.close().finally(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
