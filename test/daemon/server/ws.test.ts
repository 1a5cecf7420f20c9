import { afterEach, describe, expect, it } from 'vitest';
import type { Tokens } from '../../../daemon/server/auth.ts';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import type { Alert } from '../../../src/tracker/types.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { TestClient } from './fixtures/ws-client.ts';

let server: RunningServer | undefined;
const clients: TestClient[] = [];

async function setup(tokens: Tokens = { arbiter: 'arb-secret', admin: 'adm-secret' }, keepEvents = 200) {
  const hub = new FakeHub(3, 1, {}, keepEvents);
  server = await startServer({ hub, port: 0, tokens });
  return hub;
}
async function open(query = ''): Promise<TestClient> {
  const c = await TestClient.open(server!.wsUrl + query);
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});

const alert = (ply: number): Alert => ({
  id: `${ply}-5.4.6-1`,
  rule: '5.4.6',
  ply,
  side: 'white',
  message: 'touched 32, moved 33',
  t: 1,
  events: [],
});

describe('WebSocket calls', () => {
  it('ping, boards and games answer in the LiveChess envelope', async () => {
    const hub = await setup();
    hub.feed(2, player().move('32-28', 5));
    const c = await open();
    const pong = await c.call('ping');
    expect(pong).toMatchObject({ response: 'call', param: 'pong' });
    expect(Math.abs(pong.time - Date.now())).toBeLessThan(5000);
    const boards = await c.call('boards');
    expect(boards.param.round).toBe(1);
    expect(boards.param.boards.map((b: { board: number; moves: number }) => [b.board, b.moves])).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
    ]);
    const games = await c.call('games', { board: 2 });
    expect(games.param[0].moves[0].pdn).toBe('32-28');
    expect((await c.call('games')).param).toHaveLength(3);
    expect((await c.call('games', { round: 4 })).param).toEqual([]);
    // Answers are shared between calls until a version changes.
    hub.feed(3, player().move('34-30', 6));
    const after = (await c.call('games')).param;
    expect(after[2].moves.map((m: { pdn: string }) => m.pdn)).toEqual(['34-30']);
  });

  it('unknown calls, bad JSON and bad params get error answers, the connection stays', async () => {
    await setup();
    const c = await open();
    expect((await c.call('fly')).param).toMatchObject({ code: 'unknown-call' });
    c.ws.send('{"id": 77, "call": ');
    expect((await c.wait((m) => m.response === 'error' && m.id === null)).param.code).toBe('bad-json');
    c.ws.send('{"id": 78, "call": 5}');
    expect((await c.wait((m) => m.id === 78)).param.code).toBe('bad-json');
    const bad = await c.call('subscribe', { feed: 'board', board: 'two' });
    expect(bad.param.code).toBe('bad-param');
    expect(bad.param.message).toContain('param.board');
    expect((await c.call('subscribe', { feed: 'board', board: 9 })).param.code).toBe('not-found');
    expect((await c.call('ping')).param).toBe('pong');
  });
});

describe('WebSocket feeds', () => {
  it('board feed: answer, then a snapshot, then live events with rising versions', async () => {
    const hub = await setup();
    const p = player();
    hub.feed(1, p.move('32-28', 1));
    const c = await open();
    const answer = await c.call('subscribe', { feed: 'board', board: 1, id: 'b1' });
    expect(answer.param).toEqual({ subscription: 'b1', epoch: expect.stringMatching(/^[0-9a-f]{8}$/) });
    const snap = await c.wait((m) => m.id === 'b1' && m.param.kind === 'snapshot');
    expect(c.messages.indexOf(answer)).toBeLessThan(c.messages.indexOf(snap));
    expect(snap.param).toMatchObject({
      board: 1,
      version: 1,
      snapshot: { version: 1, fen: expect.any(String) },
    });
    hub.feed(1, p.move('19-23', 2));
    hub.feed(2, player().move('31-27', 2));
    const live = await c.wait((m) => m.id === 'b1' && m.param.kind === 'move');
    expect(live.param).toMatchObject({ board: 1, version: 2, move: { pdn: '19-23' } });
    await c.call('ping');
    expect(c.feeds('b1').every((m) => m.param.board === 1)).toBe(true);
  });

  it('since: a client that reconnects gets exactly the events it missed', async () => {
    const hub = await setup();
    const p = player();
    hub.feed(1, p.move('32-28', 1), p.move('19-23', 2), p.move('28x19', 3), p.move('14x23', 4));
    const c = await open();
    await c.call('subscribe', { feed: 'board', board: 1, id: 'x', since: 2 });
    await c.call('ping');
    expect(c.feeds('x').map((m) => [m.param.kind, m.param.version])).toEqual([
      ['move', 3],
      ['move', 4],
    ]);
    const d = await open();
    const { epoch } = (await d.call('subscribe', { feed: 'board', board: 1, id: 'y', since: 4 })).param;
    await d.call('ping');
    expect(d.feeds('y')).toEqual([]);
    // The same epoch: events; another run's epoch (a daemon restart): a snapshot.
    await d.call('subscribe', { feed: 'board', board: 1, id: 'z', since: 3, epoch });
    await d.call('subscribe', { feed: 'board', board: 1, id: 'w', since: 3, epoch: 'old-run' });
    await d.call('ping');
    expect(d.feeds('z').map((m) => m.param.kind)).toEqual(['move']);
    expect(d.feeds('w').map((m) => m.param.kind)).toEqual(['snapshot']);
  });

  it('an event the catch-up already covered is not sent again (hub that tells subscribers late)', async () => {
    const hub = await setup();
    const p = player();
    hub.feed(1, p.move('32-28', 1));
    // The record moves on, but the hub has not told its subscribers yet.
    const record = hub.boardsByNo.get(1)!.record;
    const late = [...record.apply(p.move('19-23', 2)), ...record.apply(p.move('28x19', 3))];
    const c = await open();
    await c.call('subscribe', { feed: 'board', board: 1, id: 's', since: 1 });
    await c.call('subscribe', { feed: 'round', id: 'r' });
    hub.publish(late);
    hub.feed(1, p.move('14x23', 4));
    await c.wait((m) => m.id === 'r' && m.param.version === 4);
    await c.call('ping');
    expect(c.feeds('s').map((m) => m.param.version)).toEqual([2, 3, 4]);
    expect(c.feeds('r').map((m) => [m.param.board, m.param.kind, m.param.version])).toEqual([
      [1, 'snapshot', 3],
      [2, 'snapshot', 0],
      [3, 'snapshot', 0],
      [1, 'move', 4],
    ]);
  });

  it('since older than what is kept → a fresh snapshot', async () => {
    const hub = await setup(undefined, 2);
    const p = player();
    hub.feed(1, p.move('32-28', 1), p.move('19-23', 2), p.move('28x19', 3), p.move('14x23', 4));
    const c = await open();
    await c.call('subscribe', { feed: 'board', board: 1, id: 7, since: 1 });
    const m = await c.wait((x) => x.id === 7 && x.response === 'feed');
    expect(m.param).toMatchObject({ kind: 'snapshot', version: 4 });
    expect(m.param.snapshot.moves).toHaveLength(4);
  });

  it('round feed: every board, `since` per board, live events of all boards', async () => {
    const hub = await setup();
    const p = player();
    hub.feed(1, p.move('32-28', 1), p.move('19-23', 2));
    hub.feed(3, player().move('34-30', 1));
    const c = await open();
    await c.call('subscribe', { feed: 'round', id: 'r', since: { '1': 1, '2': 0 } });
    await c.call('ping');
    expect(c.feeds('r').map((m) => [m.param.board, m.param.kind, m.param.version])).toEqual([
      [1, 'move', 2],
      [3, 'snapshot', 1],
    ]);
    hub.feed(2, player().move('31-26', 5));
    const live = await c.wait((m) => m.id === 'r' && m.param.board === 2);
    expect(live.param).toMatchObject({ kind: 'move', version: 1 });
  });

  it('subscription id defaults to the call id; unsubscribe stops the feed', async () => {
    const hub = await setup();
    const c = await open();
    c.ws.send(JSON.stringify({ id: 41, call: 'subscribe', param: { feed: 'board', board: 3 } }));
    expect((await c.wait((m) => m.id === 41 && m.response === 'call')).param).toMatchObject({
      subscription: 41,
    });
    const p = player();
    hub.feed(3, p.move('32-28', 1));
    await c.wait((m) => m.id === 41 && m.param.kind === 'move');
    expect((await c.call('unsubscribe', { id: 41 })).param).toEqual({ unsubscribed: 41 });
    hub.feed(3, p.move('19-23', 2));
    await c.call('ping');
    expect(c.feeds(41).filter((m) => m.param.kind === 'move')).toHaveLength(1);
    expect((await c.call('unsubscribe', { id: 41 })).param.code).toBe('not-found');
  });
});

describe('WebSocket arbiter calls and tokens', () => {
  it('spectators cannot decide, set results or info, nor follow alerts', async () => {
    const hub = await setup();
    const c = await open();
    for (const [call, param] of [
      ['decide', { board: 1, alertId: 'a', kind: 'stands' }],
      ['result', { board: 1, result: '2-0' }],
      ['info', { board: 1, info: { white: 'X' } }],
      ['resync', {}],
      ['subscribe', { feed: 'alerts' }],
    ] as const) {
      expect((await c.call(call, param)).param.code).toBe('unauthorized');
    }
    expect((await c.call('result', { board: 1, result: '2-0', token: 'wrong' })).param.code).toBe(
      'unauthorized',
    );
    expect((await c.call('auth', { token: 'wrong' })).param.code).toBe('unauthorized');
    expect(hub.calls).toEqual([]);
  });

  it('a wrong token in the URL is refused at the handshake', async () => {
    await setup();
    await expect(TestClient.open(`${server!.wsUrl}?token=nope`)).rejects.toThrow('HTTP 401');
  });

  it('the token in the URL, in `auth` or in the call param allows arbiter calls', async () => {
    const hub = await setup();
    hub.feed(1, player().move('32-28', 1), { type: 'alert', t: 2, alert: alert(1) });
    const byUrl = await open('?token=arb-secret');
    expect((await byUrl.call('decide', { board: 1, alertId: '1-5.4.6-1', kind: 'stands' })).param).toEqual({
      ok: true,
    });
    expect(hub.calls[0]).toEqual({ call: 'decide', board: 1, arg: { alertId: '1-5.4.6-1', kind: 'stands' } });
    expect(hub.snapshot(1)!.alerts[0].decision?.kind).toBe('stands');

    const byAuth = await open();
    expect((await byAuth.call('auth', { token: 'adm-secret' })).param).toEqual({ role: 'admin' });
    expect((await byAuth.call('info', { board: 2, info: { white: 'Van der Wal, Anton' } })).param).toEqual({
      ok: true,
    });
    expect(hub.snapshot(2)!.info.white).toBe('Van der Wal, Anton');

    const byParam = await open();
    const r = await byParam.call('result', { board: 3, result: '1-1', token: 'arb-secret' });
    expect(r.param).toEqual({ ok: true, result: '1-1' });
    expect(hub.snapshot(3)!.result).toBe('1-1');
    expect((await byParam.call('decide', { board: 1, alertId: 'none', kind: 'stands' })).param.code).toBe(
      'not-found',
    );
    expect((await byParam.call('info', { board: 1, info: { board: 5 } })).param.code).toBe('bad-param');
  });

  it('resync asks every board, or one known board, for a full dump', async () => {
    const hub = await setup();
    const c = await open('?token=arb-secret');
    expect((await c.call('resync')).param).toEqual({ ok: true, boards: [1, 2, 3] });
    expect((await c.call('resync', { board: 2 })).param).toEqual({ ok: true, boards: [2] });
    expect((await c.call('resync', { board: 9 })).param.code).toBe('not-found');
    expect((await c.call('resync', { board: 'all' })).param.code).toBe('bad-param');
    expect(hub.calls.map((x) => [x.call, x.board])).toEqual([
      ['resync', 0],
      ['resync', 2],
    ]);
  });

  it('result "proposed" confirms the engine proposal; a hub failure is a `failed` error', async () => {
    const hub = await setup();
    const c = await open('?token=arb-secret');
    expect((await c.call('result', { board: 1, result: 'proposed' })).param.code).toBe('not-found');
    hub.feed(1, { type: 'result-gesture', t: 1, result: '0-2' });
    expect((await c.call('result', { board: 1, result: 'proposed' })).param).toEqual({
      ok: true,
      result: '0-2',
    });
    hub.failNext = 'journal is read-only';
    const failed = await c.call('result', { board: 2, result: '2-0' });
    expect(failed.param).toEqual({ code: 'failed', message: 'journal is read-only' });
  });

  it('alerts feed: open alerts and proposals first, then alert/decision/result events of all boards', async () => {
    const hub = await setup();
    hub.feed(2, { type: 'alert', t: 1, alert: alert(1) });
    hub.feed(3, { type: 'result-gesture', t: 1, result: '2-0' });
    const c = await open('?token=adm-secret');
    await c.call('subscribe', { feed: 'alerts', id: 'al' });
    const first = await c.wait((m) => m.id === 'al' && m.param.kind === 'alerts');
    expect(first.param.alerts.map((a: { board: number; id: string }) => [a.board, a.id])).toEqual([
      [2, '1-5.4.6-1'],
    ]);
    const proposals = await c.wait((m) => m.id === 'al' && m.param.kind === 'proposals');
    expect(proposals.param.proposals).toEqual([
      { board: 3, result: '2-0', reason: 'result shown on the board' },
    ]);
    hub.feed(1, player().move('32-28', 5));
    hub.feed(1, { type: 'alert', t: 6, alert: alert(1) });
    const live = await c.wait((m) => m.id === 'al' && m.param.kind === 'alert');
    expect(live.param).toMatchObject({ board: 1, alert: { rule: '5.4.6' } });
    expect(c.feeds('al').some((m) => m.param.kind === 'move')).toBe(false);
  });

  it('without configured tokens, loopback connections are spectators: arbiter calls need a token', async () => {
    const hub = await setup({});
    const c = await open();
    expect((await c.call('result', { board: 1, result: '2-0' })).param.code).toBe('unauthorized');
    expect((await c.call('auth', { token: 'anything' })).param.code).toBe('unauthorized');
    expect(hub.calls).toHaveLength(0);
  });
});
