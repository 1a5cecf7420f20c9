// `damlink gateway` logging in to a broker as the daemon's `mqtt:` does: a mosquitto that only
// speaks TLS, with a certificate made for this test, a client certificate required and a password.
// The flags and a config file's mqtt: section each get the gateway in; without the CA it is not.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import { type MqttBridge, startMqttBridge } from '../../../daemon/server/mqtt.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { cleanUp, fetchText, onCleanup, tempDir, until } from '../../integration/fixtures/helpers.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { type Broker, startTlsBroker, type TlsLogin } from '../server/fixtures/mosquitto.ts';
import { damlink, spawnDamlink } from './fixtures/run-cli.ts';

const BASE = 'tls-hall';
let broker: Broker & { login: TlsLogin };
let daemon: RunningServer;
let bridge: MqttBridge;
const hub = new FakeHub(2, 1);
/** How often the daemon's bridge (re)connected: a gateway with its client id would push it off. */
let daemonConnects = 0;

beforeAll(async () => {
  broker = await startTlsBroker();
  const { ca, cert, key, username, password } = broker.login;
  daemon = await startServer({ hub, port: 0 });
  bridge = await startMqttBridge({
    hub,
    url: broker.url,
    ...{ ca, cert, key, username, password, baseTopic: BASE, clientId: 'hall-tls' },
    apiUrl: daemon.apiUrl,
    log: {
      info: (_o, msg) => {
        if (msg === 'mqtt connected') daemonConnects++;
      },
      warn() {},
      debug() {},
    },
  });
}, 30_000);

afterAll(async () => {
  await cleanUp();
  await bridge?.close();
  await daemon?.close();
  await broker?.stop();
});

/** A gateway process; resolves with its address once it serves. */
async function gateway(args: string[]) {
  const run = spawnDamlink(['gateway', '--port', '0', '--log-level', 'warn', ...args]);
  onCleanup(async () => {
    run.child.kill('SIGTERM');
    await run.exited;
  });
  const url = await until(
    () => /open (http:\/\/\S+?)\/ /.exec(run.stdout())?.[1],
    20_000,
    'the gateway serving',
  );
  return { url, stderr: run.stderr };
}

/** `--mqtt`, `--base-topic` and the login's flags (the password apart), but for `without`. */
function loginFlags(without?: string): string[] {
  const { ca, cert, key, username } = broker.login;
  const flags = {
    '--mqtt': broker.url,
    '--base-topic': BASE,
    '--mqtt-ca': ca,
    '--mqtt-cert': cert,
    '--mqtt-key': key,
    '--mqtt-username': username,
  };
  return Object.entries(flags).flatMap(([flag, value]) => (flag === without ? [] : [flag, value]));
}

/** The gateway has both boards, and a move then played on `board` reaches it. */
async function servesMove(url: string, board: number, move: string): Promise<void> {
  await until(async () => (await boards(url)).length === 2, 15_000, 'both boards on the gateway');
  hub.feed(board, player().move(move, 1));
  await until(
    async () => (await fetchText(`${url}/rounds/1/games.pdn`)).includes(`1. ${move}`),
    15_000,
    'the move on the gateway',
  );
}

const boards = async (url: string): Promise<number[]> =>
  JSON.parse(await fetchText(`${url}/api/v1/boards`)).boards.map((b: { board: number }) => b.board);

describe('damlink gateway over TLS', () => {
  it('--mqtt mqtts://… with --mqtt-ca, --mqtt-cert, --mqtt-key, --mqtt-username and --mqtt-password-file', async () => {
    const secret = join(tempDir('gw-secret'), 'mqtt-password');
    writeFileSync(secret, `${broker.login.password}\n`);
    const { url } = await gateway([...loginFlags(), '--mqtt-password-file', secret]);
    await servesMove(url, 1, '32-28');
  }, 60_000);

  it("--config FILE: the mqtt: section (the daemon's client id is not taken)", async () => {
    const file = join(tempDir('gw-config'), 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify({ mqtt: { url: broker.url, baseTopic: BASE, clientId: 'hall-tls', ...broker.login } }),
    );
    const { url } = await gateway(['--config', file]);
    const connects = daemonConnects;
    await servesMove(url, 2, '33-29');
    // Had the gateway connected as hall-tls, the broker would have pushed the daemon off (and back).
    await new Promise((r) => setTimeout(r, 1500));
    expect(daemonConnects).toBe(connects);
  }, 60_000);

  it('without the CA the broker is not trusted: the gateway serves no boards and logs why', async () => {
    const { url, stderr } = await gateway(loginFlags('--mqtt-ca'));
    await until(() => stderr().includes('mqtt error'), 15_000, 'the refused connection logged');
    expect(stderr()).toMatch(/certificate/i);
    expect(await boards(url)).toEqual([]);
  }, 60_000);

  it('a TLS file that cannot be read, or no broker at all, is bad usage (exit 2)', () => {
    const missing = damlink(['gateway', '--mqtt', broker.url, '--mqtt-ca', '/nonexistent/ca.pem']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^damlink: --mqtt-ca: cannot read \/nonexistent\/ca.pem/m);
    const none = damlink(['gateway']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^damlink: no broker: give --mqtt URL, or --config with mqtt: \{ url \}/m);
  });
});
