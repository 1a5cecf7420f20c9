// The arbiter's tournament calls over the WebSocket API, and GET /api/v1/tournament.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../daemon/server/index.ts';
import type { TournamentStore } from '../../daemon/tournament/store.ts';
import type { Event } from '../../src/tournament/index.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { closeServed, serveHub } from '../daemon/server/fixtures/served-hub.ts';
import type { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { type TempStore, tempStore } from './fixtures/helpers.ts';

const TOKEN = 'calls-secret';
let temp: TempStore;
let store: TournamentStore;
let server: RunningServer;
let client: TestClient;

beforeAll(async () => {
  temp = tempStore('tournament-calls');
  store = temp.store;
  const served = await serveHub(new FakeHub(2, 1), { arbiter: TOKEN }, { tournament: store });
  server = served.server;
  client = await served.open();
});

afterAll(async () => {
  await closeServed();
  temp.close();
});

const tournament = async () =>
  (await (await fetch(`${server.url}/api/v1/tournament`)).json()) as { round: number; event: Event | null };

describe('tournament calls', () => {
  it('need the arbiter token', async () => {
    const r = await client.call('players', { csv: 'name\n"A, B"\n' });
    expect(r.param.code).toBe('unauthorized');
    expect(store.load()).toBeUndefined();
  });

  it('players from CSV start a tournament; pairings before players are not-found', async () => {
    expect(await tournament()).toEqual({ round: 1, event: null, pairing: false });
    const before = await client.call('pairings', { round: 1, csv: '1,1,2\n', token: TOKEN });
    expect(before.param.code).toBe('not-found');
    const r = await client.call('players', {
      csv: 'name,fmjd\n"Boomstra, Roel",16241\n"Kosse, Hein",\n"Peeters, Lies",\n',
      token: TOKEN,
    });
    expect(r.param).toEqual({ ok: true, players: 3 });
    expect((await tournament()).event?.players[0]).toEqual({
      start: 1,
      name: 'Boomstra, Roel',
      fmjdId: '16241',
    });
  });

  it('pairings: bad lines come back with their numbers; good ones are the round', async () => {
    const bad = await client.call('pairings', {
      round: 1,
      csv: 'board,white,black\n1,1,2\n2,3,9\n3,x,1\n',
      token: TOKEN,
    });
    expect(bad.param).toEqual({
      code: 'bad-param',
      message:
        '3: no player has starting rank 9; 4: no player is called "x"; 4: 1 is paired already (line 2)',
    });
    const good = await client.call('pairings', { round: 1, csv: '1,1,2\n2,3,bye\n', token: TOKEN });
    expect(good.param).toEqual({ ok: true, round: 1, pairings: 1, byes: 1 });
  });

  it('players: a file without the players the rounds have is refused', async () => {
    const r = await client.call('players', { csv: 'name\n"Boomstra, Roel"\n', token: TOKEN });
    expect(r.param).toEqual({
      code: 'bad-param',
      message: 'the rounds have players the file lacks: starting ranks 2, 3',
    });
  });

  it('table-result: written, or why not', async () => {
    expect(
      (await client.call('table-result', { round: 1, table: 1, result: '+-', token: TOKEN })).param,
    ).toEqual({
      ok: true,
      round: 1,
      table: 1,
      result: '+-',
    });
    expect(store.load()?.rounds[0].pairings[0].result).toEqual({ kind: 'forfeit', winner: 'white' });
    expect(
      (await client.call('table-result', { round: 1, table: 5, result: '2-0', token: TOKEN })).param.code,
    ).toBe('not-found');
    expect(
      (await client.call('table-result', { round: 1, table: 1, result: '3-0', token: TOKEN })).param.code,
    ).toBe('bad-param');
    const plus = await client.call('table-result', { round: 1, table: 1, result: '1+-1-', token: TOKEN });
    expect(plus.param.message).toContain('does not play draws with advantage');
    expect(
      (await client.call('table-result', { round: 1, table: 1, result: '*', token: TOKEN })).param.ok,
    ).toBe(true);
    expect(store.load()?.rounds[0].pairings[0].result).toBeUndefined();
  });
});
