// The gateway's Hub, fed the messages daemons publish: events told in order once their state has
// come, duplicates dropped, gaps closed by the daemon's events or by the snapshot, rounds kept.
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../../daemon/config/schema.ts';
import { BrokerHub } from '../../../daemon/gateway/broker-hub.ts';
import { arbiterSide } from '../../../daemon/hub.ts';
import { startServer } from '../../../daemon/server/index.ts';
import { TestClient } from '../server/fixtures/ws-client.ts';
import type { GameEvent } from '../../../src/game/types.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { alertOutput } from '../fixtures/alerts.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { eventMessage, stateMessage } from './fixtures/messages.ts';

function setUp(fetchEvents?: ConstructorParameters<typeof BrokerHub>[1], boardBytes?: number) {
  const daemon = new FakeHub(2, 3);
  const warnings: object[] = [];
  const hub = new BrokerHub({ warn: (o) => warnings.push(o) }, fetchEvents, boardBytes);
  hub.daemon('hall-a', { state: 'online', daemon: 'hall-a', round: 3, boards: [1, 2], api: 'http://d' });
  for (const b of [1, 2]) hub.state(stateMessage(daemon, b));
  const told: GameEvent[] = [];
  hub.subscribe((e) => told.push(e));
  return { daemon, hub, told, warnings, p: player() };
}

describe('BrokerHub', () => {
  it('tells the events of a board in order once the state after them has come, and keeps them for since', () => {
    const { daemon, hub, told, p } = setUp();
    const events = daemon.feed(1, p.move('32-28', 1), p.move('19-23', 2));
    for (const e of events) hub.event(eventMessage(3, e));
    expect(told).toEqual([]);
    hub.state(stateMessage(daemon, 1));
    expect(told.map((e) => e.version)).toEqual([1, 2]);
    expect(hub.snapshot(1)).toEqual(daemon.snapshot(1));
    expect(hub.since(1, 0)).toEqual(events);
    expect(hub.since(1, 1)).toEqual([events[1]]);
    expect(hub.since(1, 2)).toEqual([]);
    // A spectator ahead of this gateway waits for what it has not seen.
    expect(hub.since(1, 9)).toEqual([]);
    expect(hub.boards().map((b) => [b.board, b.version, b.source])).toEqual([
      [1, 2, 'tcp://x'],
      [2, 0, 'tcp://x'],
    ]);
  });

  it('drops an event it has (a redelivery, a retained last event) and an old state', () => {
    const { daemon, hub, told, p } = setUp();
    const [first] = daemon.feed(1, p.move('32-28', 1));
    hub.event(eventMessage(3, first));
    hub.event(eventMessage(3, first));
    const state = stateMessage(daemon, 1);
    hub.state(state);
    hub.event(eventMessage(3, first));
    hub.state(state);
    expect(told.map((e) => e.version)).toEqual([1]);
  });

  it('on a gap asks the daemon for the missing events, then tells them all in order', async () => {
    const asked: Array<[string, number, number]> = [];
    let missing: GameEvent[] = [];
    const { daemon, hub, told, p } = setUp(async (api, board, version) => {
      asked.push([api, board, version]);
      return missing;
    });
    const events = daemon.feed(1, p.move('32-28', 1), p.move('19-23', 2), p.move('28x19', 3));
    missing = events.slice(0, 2);
    hub.event(eventMessage(3, events[2]));
    hub.state(stateMessage(daemon, 1));
    await new Promise((r) => setImmediate(r));
    expect(asked).toEqual([['http://d', 1, 0]]);
    expect(told.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(hub.since(1, 0)).toEqual(events);
  });

  it("on a gap while the daemon's detail says offline (the broker's shutdown sent its will), still asks its last address", async () => {
    const asked: string[] = [];
    let missing: GameEvent[] = [];
    const { daemon, hub, told, p } = setUp(async (api) => {
      asked.push(api);
      return missing;
    });
    hub.daemon('hall-a', { state: 'offline', daemon: 'hall-a' });
    const events = daemon.feed(1, p.move('32-28', 1), p.move('19-23', 2));
    missing = events.slice(0, 1);
    // Back on the restarted broker: the daemon's events and state come before its detail.
    hub.event(eventMessage(3, events[1]));
    hub.state(stateMessage(daemon, 1));
    await new Promise((r) => setImmediate(r));
    expect(asked).toEqual(['http://d']);
    expect(told.map((e) => e.version)).toEqual([1, 2]);
    // While offline it announces no round: the rounds seen stand in.
    expect(hub.round()).toBe(3);
  });

  it('on a gap nobody can fill, takes the snapshot: since before it answers with the snapshot', async () => {
    const { daemon, hub, told, warnings, p } = setUp(async () => undefined);
    const events = daemon.feed(1, p.move('32-28', 1), p.move('19-23', 2));
    hub.event(eventMessage(3, events[1]));
    hub.state(stateMessage(daemon, 1));
    await new Promise((r) => setImmediate(r));
    expect(told).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(hub.snapshot(1)?.version).toBe(2);
    expect(hub.since(1, 0)).toBeUndefined();
    const [next] = daemon.feed(1, p.move('28x19', 3));
    hub.event(eventMessage(3, next));
    hub.state(stateMessage(daemon, 1));
    expect(told).toEqual([next]);
  });

  it('serves the latest round a daemon announces and keeps the games of the rounds it saw', () => {
    const { daemon, hub, p } = setUp();
    daemon.feed(1, p.move('32-28', 1));
    hub.state(stateMessage(daemon, 1));
    const next = new FakeHub(1, 4);
    hub.daemon('hall-a', { state: 'online', daemon: 'hall-a', round: 4, boards: [1], api: 'http://d' });
    hub.state(stateMessage(next, 1));
    expect(hub.round()).toBe(4);
    expect(hub.boards().map((b) => b.board)).toEqual([1]);
    expect(hub.games(3).map((g) => [g.info.board, g.moves.length])).toEqual([
      [1, 1],
      [2, 0],
    ]);
    expect(hub.games(4).map((g) => g.info.round)).toEqual([4]);
    expect(hub.hasRound(2)).toBe(false);
  });

  it('has no arbiter side: its server refuses arbiter calls, they belong to the daemon', async () => {
    const { hub } = setUp();
    expect(arbiterSide(hub)).toBeUndefined();
    const server = await startServer({ hub, port: 0, tokens: { arbiter: 'arb' } });
    const client = await TestClient.open(`${server.wsUrl}?token=arb`);
    try {
      for (const [call, param] of [
        ['result', { board: 1, result: '2-0' }],
        ['resync', {}],
        ['info', { board: 1, info: { white: 'Jansen' } }],
      ] as const) {
        const answer = await client.call(call, param);
        expect(answer.response).toBe('error');
        expect(answer.param).toMatchObject({
          code: 'failed',
          message: expect.stringMatching(/on the daemon/),
        });
      }
      // What it shows is served as before.
      expect((await client.call('games', { board: 1 })).response).toBe('call');
    } finally {
      client.close();
      await server.close();
    }
  });

  it("holds a board's events by bytes, not only by count: big events push the oldest out, a huge one is dropped", () => {
    const { daemon, hub } = setUp();
    // Valid-looking events of ~900 KB each (an alert with a padded message): 40 of them.
    const alert = (n: number, bytes: number) => alertOutput(n, `a${n}`, 'x'.repeat(bytes));
    const events = daemon.feed(1, ...Array.from({ length: 40 }, (_, i) => alert(i, 900_000)));
    for (const e of events) hub.event(eventMessage(3, e));
    const pending = (hub as unknown as { feeds: Map<number, { pending: Map<number, GameEvent> }> }).feeds.get(
      1,
    )!.pending;
    const held = [...pending.values()].reduce((n, e) => n + JSON.stringify(e).length, 0);
    expect(held).toBeLessThanOrEqual(DEFAULTS.gatewayBoardBytes);
    expect(pending.size).toBeLessThan(events.length);
    // The newest are the ones kept.
    expect(Math.max(...pending.keys())).toBe(events.at(-1)!.version);
    // One event larger than a board may hold is dropped.
    const [huge] = daemon.feed(1, alert(99, DEFAULTS.gatewayBoardBytes));
    const before = [...pending.keys()];
    hub.event(eventMessage(3, huge));
    expect([...pending.keys()]).toEqual(before);
  });

  it('holds what the config allows a board (limits.gatewayBoardBytes)', () => {
    const { daemon, hub } = setUp(undefined, 2 << 20);
    const alert = (n: number) => alertOutput(n, `a${n}`, 'x'.repeat(900_000));
    for (const e of daemon.feed(1, ...Array.from({ length: 10 }, (_, i) => alert(i))))
      hub.event(eventMessage(3, e));
    const pending = (hub as unknown as { feeds: Map<number, { pending: Map<number, GameEvent> }> }).feeds.get(
      1,
    )!.pending;
    // Two of ~900 KB fit in 2 MiB; the default 4 MiB would hold four.
    expect(pending.size).toBe(2);
  });
});
