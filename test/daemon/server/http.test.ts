import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import { PdnCache } from '../../../daemon/views/rounds.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';

let hub: FakeHub;
let server: RunningServer;
let webRoot: string;

beforeAll(async () => {
  webRoot = mkdtempSync(join(tmpdir(), 'damlink-web-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>viewer</title>');
  writeFileSync(join(webRoot, 'arbiter.html'), '<!doctype html><title>arbiter</title>');
  writeFileSync(join(webRoot, 'app.js'), 'export const x = 1;');
  writeFileSync(
    join(webRoot, 'layout.html'),
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<!-- the page\'s head -->\n</head>\n<!-- the page\'s body -->\n</html>\n',
  );
  writeFileSync(
    join(webRoot, 'calibrate.html'),
    '<title>calibrate</title>\n<body class="c"><p>$&</p></body>\n',
  );
  hub = new FakeHub(3, 2, { event: 'Test Open', white: undefined });
  hub.boardsByNo.get(1)!.record.setInfo({ white: 'GMI Baliakin, Alexander', black: 'Ton Sijbrands' }, 0);
  const p = player();
  hub.feed(1, p.move('32-28', 1000), p.move('19-23', 2000));
  server = await startServer({ hub, port: 0, webRoot });
});

afterAll(async () => {
  await server.close();
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });
// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();

describe('HTTP: round files for broadcasts', () => {
  it('games.pdn lists every board of the round in board order, lidraughts-ready', async () => {
    const res = await get('/rounds/2/games.pdn');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-draughts-pdn; charset=utf-8');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    expect(text.match(/\[Round "2"\]/g)).toHaveLength(3);
    const whites = [...text.matchAll(/\[White "([^"]*)"\]/g)].map((m) => m[1]);
    expect(whites).toEqual(['GMI Baliakin, Alexander', '?', '?']);
    expect(text).toContain('1. 32-28 19-23 *');
    expect(text).toContain('[GameType "20"]');
  });

  it('one board PDN by board number; 404 for unknown boards and rounds and the old game-<board>.pdn', async () => {
    const one = await (await get('/rounds/2/1.pdn')).text();
    expect(one).toContain('32-28');
    expect(one.match(/\[Event /g)).toHaveLength(1);
    expect((await get('/rounds/2/game-1.pdn')).status).toBe(404);
    expect((await get('/rounds/2/9.pdn')).status).toBe(404);
    expect((await get('/rounds/5/games.pdn')).status).toBe(404);
    const nf = await get('/nope');
    expect(nf.status).toBe(404);
    expect(await json(nf)).toMatchObject({ error: 'not-found' });
  });

  it('game indices: game-<i>.PDN is the i-th game of the round (1-based, upper case)', async () => {
    for (const i of [1, 2, 3]) {
      const res = await get(`/rounds/2/game-${i}.PDN`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-draughts-pdn; charset=utf-8');
      expect(await res.text()).toBe(await (await get(`/rounds/2/${i}.pdn`)).text());
    }
    for (const name of ['game-4.PDN', 'game-0.PDN', 'game-01.PDN']) {
      expect((await get(`/rounds/2/${name}`)).status).toBe(404);
    }
  });

  it('files download with names: round-2.pdn, round-2-board-3.pdn, round-2-game-2.pdn', async () => {
    const disposition = async (path: string) => (await get(path)).headers.get('content-disposition');
    expect(await disposition('/rounds/2/games.pdn')).toBe('attachment; filename="round-2.pdn"');
    expect(await disposition('/rounds/2/3.pdn')).toBe('attachment; filename="round-2-board-3.pdn"');
    expect(await disposition('/rounds/2/game-2.PDN')).toBe('attachment; filename="round-2-game-2.pdn"');
    expect(await disposition('/rounds/2/games.json')).toBeNull();
  });

  it('index.json: lidraughts pairings with split names and results', async () => {
    const res = await get('/rounds/2/index.json');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const index = await json(res);
    expect(index.pairings).toHaveLength(3);
    expect(index.pairings[0]).toEqual({
      board: 1,
      url: '1.pdn',
      white: { fname: 'Alexander', mname: '', lname: 'Baliakin', title: 'GMI' },
      black: { fname: 'Ton', mname: '', lname: 'Sijbrands', title: '' },
      result: '*',
    });
  });

  it('games.json: the lidraughts JSON source, one PDN per game', async () => {
    const body = await json(get('/rounds/2/games.json'));
    expect(body.round).toBe(2);
    expect(body.games.map((g: { board: number; result: string }) => [g.board, g.result])).toEqual([
      [1, '*'],
      [2, '*'],
      [3, '*'],
    ]);
    expect(body.games[0].pdn).toBe(await (await get('/rounds/2/1.pdn')).text());
  });

  it('ETag and Last-Modified make pollers cheap: 304 until a move changes the file', async () => {
    const first = await get('/rounds/2/games.pdn');
    const etag = first.headers.get('etag')!;
    const modified = first.headers.get('last-modified')!;
    expect(etag).toMatch(/^".+"$/);
    expect(new Date(modified).getTime()).not.toBeNaN();
    const again = await get('/rounds/2/games.pdn', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get('/rounds/2/games.pdn', { 'If-Modified-Since': modified })).status).toBe(304);
    expect((await get('/rounds/2/index.json', { 'If-None-Match': etag })).status).toBe(200);

    const p = player();
    hub.feed(2, p.move('33-29', 3000));
    const changed = await get('/rounds/2/games.pdn', { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(await changed.text()).toContain('33-29');
  });

  it('HEAD answers headers only; other methods get 405', async () => {
    const head = await fetch(`${server.url}/rounds/2/games.pdn`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await head.text()).toBe('');
    expect((await fetch(`${server.url}/api/v1/boards`, { method: 'POST', body: 'x' })).status).toBe(405);
  });
});

/** A raw GET (fetch would decompress on its own). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      httpGet(server.url + path, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      }).on('error', reject);
    },
  );
}

describe('HTTP: compression', () => {
  it('gzips PDN for clients that accept it, with its own ETag that still gives 304s', async () => {
    const p = player();
    hub.feed(
      3,
      ...['32-28', '19-23', '28x19', '14x23', '37-32', '10-14', '41-37', '5-10'].map((m, i) => p.move(m, i)),
    );
    const plain = await rawGet('/rounds/2/games.pdn', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await rawGet('/rounds/2/games.pdn', { 'Accept-Encoding': 'gzip, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(zipped.body).toString()).toBe(plain.body.toString());
    const etag = String(zipped.headers.etag);
    expect(etag).not.toBe(plain.headers.etag);
    const again = await rawGet('/rounds/2/games.pdn', { 'Accept-Encoding': 'gzip', 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });
});

describe('HTTP: API, health, static files', () => {
  it('/api/v1/boards lists the boards with players, result and counts', async () => {
    const body = await json(get('/api/v1/boards'));
    expect(body.round).toBe(2);
    expect(body.boards.map((b: { board: number }) => b.board)).toEqual([1, 2, 3]);
    expect(body.boards[0]).toMatchObject({
      board: 1,
      round: 2,
      state: 'active',
      serial: 'SN-1',
      source: 'tcp://127.0.0.1:7001',
      white: 'GMI Baliakin, Alexander',
      result: '*',
      moves: 2,
      openAlerts: 0,
    });
  });

  it('/api/v1/games and /api/v1/games/<board> give snapshots', async () => {
    const games = await json(get('/api/v1/games'));
    expect(games).toHaveLength(3);
    const one = await json(get('/api/v1/games/1'));
    expect(one.moves.map((m: { pdn: string }) => m.pdn)).toEqual(['32-28', '19-23']);
    expect((await get('/api/v1/games/7')).status).toBe(404);
    expect(await json(get('/api/v1/games?round=9'))).toEqual([]);
  });

  it('/arbiter/ redirects to /arbiter with its query (the page has one address)', async () => {
    const res = await fetch(`${server.url}/arbiter/?token=x`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/arbiter?token=x');
  });

  it('/health tells the round, boards and clients', async () => {
    const h = await json(get('/health'));
    expect(h).toMatchObject({ ok: true, round: 2, boards: 3, active: 3 });
    expect(typeof h.uptime).toBe('number');
  });

  it('serves the viewer at /, the console at /arbiter, files by path, never outside the root', async () => {
    const index = await get('/');
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toContain('viewer');
    expect(await (await get('/arbiter')).text()).toContain('arbiter');
    const js = await get('/app.js');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const etag = js.headers.get('etag')!;
    expect((await get('/app.js', { 'If-None-Match': etag })).status).toBe(304);
    expect((await get('/../../etc/passwd')).status).toBe(404);
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).status).toBe(404);
    expect((await get('/%E0%A4%A')).status).toBe(404);
  });

  it('puts a page that is no whole document in the layout: its head in the head, its body after it', async () => {
    const res = await get('/calibrate.html');
    const html = await res.text();
    expect(html).toBe(
      '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
        '<title>calibrate</title>\n</head>\n<body class="c"><p>$&</p></body>\n</html>\n',
    );
    // A whole document is served as it is.
    expect(await (await get('/arbiter')).text()).not.toContain('charset');
    const etag = res.headers.get('etag')!;
    expect((await get('/calibrate.html', { 'If-None-Match': etag })).status).toBe(304);
  });

  it.each(['/src/tracker/alert-words.js', '/firmware-protocol/fen-board.js'])(
    'serves %s, which the pages import from the pure core, and nothing else of it',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await res.text()).toBe(readFileSync(new URL(`../../..${path}`, import.meta.url), 'utf8'));
      for (const other of [
        '/src/tracker/messages.ts',
        '/src/tracker/tracker.ts',
        '/src/engine/index.ts',
        '/firmware-protocol/board-string.ts',
      ])
        expect((await get(other)).status, other).toBe(404);
    },
  );
});

describe('PDN text cache', () => {
  it('keeps a game’s text per version, and at most 2000 games (the least recently asked go)', () => {
    const cache = new PdnCache();
    const game = new FakeHub(1, 4).snapshot(1)!;
    const text = cache.of(game);
    // Same version, so the text kept is served (a renamed player would only come with a new version).
    const renamed = { ...game, info: { ...game.info, white: 'Renamed, Rita' } };
    expect(cache.of(renamed)).toBe(text);
    const other = (board: number) => ({ ...game, info: { ...game.info, board } });
    for (let b = 2; b <= 1500; b++) cache.of(other(b));
    expect(cache.of(renamed)).toBe(text); // asked again: now the most recent
    for (let b = 1501; b <= 2001; b++) cache.of(other(b));
    expect(cache.of(renamed)).toBe(text);
    for (let b = 2002; b <= 4002; b++) cache.of(other(b));
    expect(cache.of(renamed)).toContain('[White "Renamed, Rita"]');
  });
});

describe('static files served gzipped', () => {
  it('two files of one size and modification time (a fresh checkout) each get their own bytes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'damlink-static-'));
    const a = `export const a = 1; // ${'a'.repeat(400)}\n`;
    const b = `export const b = 2; // ${'b'.repeat(400)}\n`;
    expect(a.length).toBe(b.length);
    writeFileSync(join(root, 'a.js'), a);
    writeFileSync(join(root, 'b.js'), b);
    const when = new Date('2026-12-01T12:00:00Z');
    utimesSync(join(root, 'a.js'), when, when);
    utimesSync(join(root, 'b.js'), when, when);
    const server = await startServer({ hub: new FakeHub(1), port: 0, webRoot: root });
    try {
      const first = await fetch(`${server.url}/a.js`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(first.headers.get('content-encoding')).toBe('gzip');
      expect(await first.text()).toBe(a);
      const second = await fetch(`${server.url}/b.js`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(await second.text()).toBe(b);
    } finally {
      await server.close();
    }
  });
});
