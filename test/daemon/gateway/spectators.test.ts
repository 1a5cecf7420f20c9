// Spectators on a gateway (BrokerHub behind the daemon's own server): whatever order the broker's
// messages come in, a spectator's view of each game ends up whole — a board the gateway learns of
// after the spectator subscribed, or one it moves on without the events, reaches the spectator as
// the board's snapshot.
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayEpoch } from '../../../daemon/gateway/index.ts';
import { BrokerHub } from '../../../daemon/gateway/broker-hub.ts';
import { startServer } from '../../../daemon/server/index.ts';
import { cleanUp, onCleanup } from '../../integration/fixtures/helpers.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { type Msg, TestClient } from '../server/fixtures/ws-client.ts';
import { eventMessage, stateMessage } from './fixtures/messages.ts';

afterEach(cleanUp);

const EPOCH = gatewayEpoch('hall');

/** A gateway's hub behind the daemon's server, and a spectator connected to it. */
async function gateway(fetchEvents?: ConstructorParameters<typeof BrokerHub>[1]) {
  const hub = new BrokerHub(undefined, fetchEvents);
  hub.daemon('hall-a', { state: 'online', daemon: 'hall-a', round: 1, boards: [1, 2], api: 'http://d' });
  const server = await startServer({ hub, port: 0, epoch: EPOCH });
  onCleanup(() => server.close());
  const spectator = await TestClient.open(server.wsUrl);
  onCleanup(async () => spectator.close());
  return { hub, spectator };
}

/** A spectator's games as it would draw them: snapshots replace, moves append (by ply). */
function view(messages: Msg[]): Map<number, string[]> {
  const games = new Map<number, string[]>();
  for (const { response, param } of messages) {
    if (response !== 'feed') continue;
    if (param.kind === 'snapshot')
      games.set(
        param.board,
        param.snapshot.moves.map((m: { pdn: string }) => m.pdn),
      );
    else if (param.kind === 'move')
      games.set(param.board, [...(games.get(param.board) ?? []), param.move.pdn]);
  }
  return games;
}

/** Lets the server write what it has and the client read it. */
const settle = async (c: TestClient) => {
  await c.call('ping');
};

describe('gateway spectators', () => {
  it('a spectator resuming before the gateway has the board gets its snapshot once the state comes', async () => {
    const daemon = new FakeHub(2, 1);
    const p = player();
    const [first] = daemon.feed(1, p.move('32-28', 1));
    // The spectator saw the first move on another gateway; the second was played meanwhile.
    daemon.feed(1, p.move('19-23', 2));
    const { hub, spectator: c } = await gateway();
    await c.call('subscribe', { feed: 'round', since: { '1': first.version, '2': 0 }, epoch: EPOCH });
    // The retained states come after the subscription (a gateway restarted a moment before).
    hub.state(stateMessage(daemon, 1));
    hub.state(stateMessage(daemon, 2));
    const [third] = daemon.feed(1, p.move('28x19', 3));
    hub.event(eventMessage(1, third));
    hub.state(stateMessage(daemon, 1));
    await settle(c);
    expect(view(c.messages).get(1)).toEqual(['32-28', '19-23', '28x19']);
    expect(view(c.messages).get(2)).toEqual([]);
  });

  it('a board subscriber gets the snapshot when the gateway moves the board on without its events', async () => {
    const daemon = new FakeHub(2, 1);
    const p = player();
    const { hub, spectator: c } = await gateway(async () => undefined);
    hub.state(stateMessage(daemon, 1));
    await c.call('subscribe', { feed: 'board', board: 1, since: 0, epoch: EPOCH });
    const events = daemon.feed(1, p.move('32-28', 1), p.move('19-23', 2), p.move('28x19', 3));
    // The first two were lost on the broker, and the daemon no longer has them either.
    hub.event(eventMessage(1, events[2]));
    hub.state(stateMessage(daemon, 1));
    await new Promise((r) => setImmediate(r));
    const [fourth] = daemon.feed(1, p.move('14x23', 4));
    hub.event(eventMessage(1, fourth));
    hub.state(stateMessage(daemon, 1));
    await settle(c);
    expect(view(c.messages).get(1)).toEqual(['32-28', '19-23', '28x19', '14x23']);
    // Told once each: the snapshot stands for the lost events, the next move follows it.
    const versions = c.feeds(1).map((m) => m.param.version);
    expect(versions).toEqual([3, 4]);
  });
});
