// A gateway's catch-up from a daemon the config names: however much that daemon sends before its
// `ping` answer, the gateway holds no more of it than a board may hold from the broker.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { DEFAULTS } from '../../../daemon/config/schema.ts';
import { daemonEvents } from '../../../daemon/gateway/daemon-events.ts';
import { cleanUp, onCleanup } from '../../integration/fixtures/helpers.ts';

afterEach(cleanUp);

/** A daemon that answers a catch-up with `count` events of board 1 of about `bytes` each. */
async function paddingDaemon(count: number, bytes: number): Promise<string> {
  const fake = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  onCleanup(async () => fake.close());
  await new Promise((r) => fake.once('listening', r));
  fake.on('connection', (ws) => {
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.call === 'subscribe')
        for (let version = 2; version < 2 + count; version++)
          ws.send(
            JSON.stringify({
              response: 'feed',
              id: m.id,
              param: {
                board: 1,
                version,
                t: version,
                kind: 'position-set',
                fen: 'W:W31:B19',
                reason: 'x'.repeat(bytes),
              },
            }),
          );
      if (m.call === 'ping') ws.send(JSON.stringify({ response: 'call', id: m.id, param: {} }));
    });
  });
  return `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
}

describe('a catch-up from a named daemon', () => {
  it('reads a catch-up within the board budget', async () => {
    const events = await daemonEvents(await paddingDaemon(3, 1000), 1, 1, DEFAULTS.gatewayBoardBytes);
    expect(events?.map((e) => e.version)).toEqual([2, 3, 4]);
  });

  it('gives up on one larger than a board may hold, rather than holding it', async () => {
    const each = 900_000;
    const count = Math.ceil(DEFAULTS.gatewayBoardBytes / each) + 4;
    expect(
      await daemonEvents(await paddingDaemon(count, each), 1, 1, DEFAULTS.gatewayBoardBytes),
    ).toBeUndefined();
  });
});
