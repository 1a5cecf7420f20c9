// The standings routes over real HTTP, reading the tournament from a real journal file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../daemon/server/index.ts';
import type { StandingsDocument } from '../../daemon/views/standings.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { fixture, fixtureEvent, type TempStore, tempStore } from './fixtures/helpers.ts';

let temp: TempStore;
let server: RunningServer;

beforeAll(async () => {
  temp = tempStore('standings-routes');
  const e = fixtureEvent('swiss-2026.trf');
  const { store } = temp;
  store.save({
    ...e,
    groups: ['A', 'B'],
    players: e.players.map((p) => ({ ...p, group: p.start <= 4 ? 'A' : 'B' })),
  });
  // Birth dates and sex published too, so that the TRF export is the file the tournament came from.
  server = await startServer({
    hub: new FakeHub(2, 7),
    port: 0,
    tournament: store,
    publicPersonalData: true,
  });
});

afterAll(async () => {
  await server.close();
  temp.close();
});

const get = (path: string) => fetch(server.url + path);
const doc = async (path: string) => (await (await get(path)).json()) as StandingsDocument;

describe('standings routes', () => {
  it('standings.json: every group after the round', async () => {
    const res = await get('/rounds/7/standings.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    const body = (await res.json()) as StandingsDocument;
    expect(body.round).toBe(7);
    expect(body.groups.map((g) => g.group)).toEqual(['A', 'B']);
    expect(body.groups[0].rows[0]).toMatchObject({
      rank: 1,
      start: 1,
      name: 'Boomstra, Roel',
      points: 12,
      group: 'A',
    });
  });

  it('?group= picks one; an unknown group is 404', async () => {
    const b = await doc('/rounds/7/standings.json?group=B');
    expect(b.groups).toHaveLength(1);
    expect(b.groups[0].rows.map((r) => r.start)).toEqual([8, 5, 7, 6, 9]);
    expect((await get('/rounds/7/standings.json?group=C')).status).toBe(404);
  });

  it('after an earlier round only that far: round 1', async () => {
    const a = await doc('/rounds/1/standings.json?group=A');
    // Round 1: 1 had the bye (2), 2 beat 9 (2), 3 drew 8 (1), 4 lost to 7 (0).
    expect(a.groups[0].rows.map((r) => [r.start, r.points])).toEqual([
      [1, 2],
      [2, 2],
      [3, 1],
      [4, 0],
    ]);
  });

  it("standings.csv: one header, every group's rows with their group", async () => {
    const res = await get('/rounds/7/standings.csv');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await res.text()).trimEnd().split('\n');
    expect(lines[0]).toBe(
      'rank,start,name,group,points,solkoff,solkoff-truncated,median,sonneborn-berger,wins,plus-minus',
    );
    expect(lines[1]).toBe('1,1,"Boomstra, Roel",A,12,55,53,41,45.5,4,0');
    expect(lines).toHaveLength(10);
  });

  it('tournament.trf: the stored tournament as TRF-2026 — here the very file it came from', async () => {
    const res = await get('/api/v1/tournament.trf');
    expect(await res.text()).toBe(fixture('swiss-2026.trf'));
  });

  it('standings: an HTML page with a table per group', async () => {
    const res = await get('/rounds/7/standings');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<h1>Open Kampioenschap 2026 — Standings after round 7</h1>');
    expect(html.match(/<table class="standings">/g)).toHaveLength(2);
    expect(html).toContain('<tr><td>1</td><td>1</td><td>Boomstra, Roel</td><td>12</td><td>55</td>');
    expect(html).toContain('<td>45.5</td>');
    // In Polish, decimals as a Polish reader writes them.
    const polish = await (await get('/rounds/7/standings?lang=pl')).text();
    expect(polish).toContain('<td>45,5</td>');
    expect(polish).not.toMatch(/<td>\d+\.\d+<\/td>/);
  });

  it('standings: the page in the language asked for — ?lang= first, then Accept-Language', async () => {
    const nl = await fetch(`${server.url}/rounds/7/standings?group=A`, {
      headers: { 'Accept-Language': 'nl-BE, en;q=0.5' },
    });
    expect(nl.headers.get('vary')).toContain('Accept-Language');
    const dutch = await nl.text();
    expect(dutch).toContain('<html lang="nl">');
    expect(dutch).toContain('<h1>Open Kampioenschap 2026 — Stand na ronde 7</h1>');
    expect(dutch).toContain('<th scope="col">Weerstandspunten</th>');
    const ru = await (
      await fetch(`${server.url}/rounds/7/standings?lang=ru`, { headers: { 'Accept-Language': 'nl' } })
    ).text();
    expect(ru).toContain('<html lang="ru">');
    expect(ru).toContain('Турнирная таблица после тура 7');
    expect(ru).toContain('<th scope="col">Коэффициент Бергера</th>');
  });
});
