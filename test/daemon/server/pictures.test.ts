// Pictures of positions over HTTP: the drawing of the pages as SVG, and PNG through resvg.
import { Resvg } from '@resvg/resvg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';

const START = 'W:W31-50:B1-20';
let server: RunningServer;

beforeAll(async () => {
  const hub = new FakeHub(2, 1);
  const p = player();
  hub.feed(1, p.move('32-28', 1000), p.move('19-23', 2000), p.move('28x19', 3000));
  server = await startServer({ hub, port: 0 });
});
afterAll(() => server.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });
const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

describe('HTTP pictures', () => {
  it('/rounds/<n>/<board>.svg: the game after ply K with that move marked, sized by query', async () => {
    const res = await get('/rounds/1/1.svg?ply=3&size=300');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('etag')).toBeTruthy();
    const svg = await res.text();
    expect(svg).toContain('width="300" height="300"');
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    // 28x19 took one black man: 20 white, 19 black.
    expect(count(svg, /class="piece white"/g)).toBe(20);
    expect(count(svg, /class="piece black"/g)).toBe(19);
    expect([...svg.matchAll(/class="sq last" data-square="(\d+)"/g)].map((m) => m[1])).toEqual(['19', '28']);
    expect(svg).toContain('class="captured" data-square="23"');

    const start = await (await get('/rounds/1/1.svg?ply=0')).text();
    expect(count(start, /class="piece /g)).toBe(40);
    expect(start).toContain('width="480"');
    expect(start).not.toContain('sq last');
    // No ply: the game as it stands now.
    expect(await (await get('/rounds/1/1.svg')).text()).toBe(svg.replace(/"300"/g, '"480"'));
  });

  it('/position.svg?fen=…: any position; a bad FEN, size or ply is a 400, an unknown board a 404', async () => {
    const res = await get(`/position.svg?fen=${encodeURIComponent('B:W28,K5:B19,23')}&variant=international`);
    expect(res.status).toBe(200);
    const svg = await res.text();
    expect(count(svg, /data-piece="W"/g)).toBe(1);
    expect(count(svg, /class="piece /g)).toBe(4);
    const small = await (
      await get(`/position.svg?fen=${encodeURIComponent('W:W21-32:B1-12')}&variant=brazilian`)
    ).text();
    expect(count(small, /data-square=/g)).toBe(32);

    const bad = await get('/position.svg?fen=W:X99');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'bad-fen' });
    expect((await get(`/position.svg?fen=${START}&size=9`)).status).toBe(400);
    expect((await get(`/position.png?fen=${START}&variant=chess`)).status).toBe(400);
    expect((await get('/rounds/1/1.svg?ply=99')).status).toBe(400);
    expect((await get('/rounds/1/7.svg')).status).toBe(404);
  });

  it('.png: the same picture rendered, of the asked size, cached per version', async () => {
    const res = await get(`/position.png?fen=${START}&size=200`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // Width and height from the IHDR chunk.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([200, 200]);
    const etag = res.headers.get('etag')!;
    expect((await get(`/position.png?fen=${START}&size=200`, { 'If-None-Match': etag })).status).toBe(304);
    // The drawing's colours survive the renderer: square 1 (its corner, beside the piece) has the dark square colour.
    const svg = await (await get(`/position.svg?fen=W:W50:B1&size=100`)).text();
    const pixels = new Resvg(svg).render().pixels;
    const at = (x: number, y: number) => [...pixels.subarray((y * 100 + x) * 4, (y * 100 + x) * 4 + 3)];
    expect(at(11, 1)).toEqual([0x3f, 0x6b, 0x34]);
    expect(at(5, 5)).toEqual([0xf3, 0xea, 0xd2]);
  });
});

describe('kings', () => {
  it('wear a crown across most of the piece, not a dot', async () => {
    const svg = await (await get('/position.svg?fen=W:WK46:B1&size=200')).text();
    const crown = /<polygon class="crown" points="([^"]+)"/.exec(svg);
    expect(crown).not.toBeNull();
    const xs = crown![1].split(' ').map((p) => Number(p.split(',')[0]));
    const piece = /<g class="p king"[^>]*><circle class="piece white" cx="[^"]+" cy="[^"]+" r="([^"]+)"/.exec(
      svg,
    );
    // The crown spans more than half the piece's diameter.
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(Number(piece![1]));
    expect(svg.match(/class="crown"/g)).toHaveLength(1);
  });
});

describe('PNG renderings are bounded (a spectator flood does not reach the live feed)', () => {
  it('one address gets two renderings at a time; more are 503 with Retry-After, and the same picture is rendered once', async () => {
    const hub = new FakeHub(1, 1);
    const own = await startServer({ hub, port: 0, pngLimits: { rendering: 1, perAddress: 2 } });
    try {
      const sizes = Array.from({ length: 12 }, (_, i) => 1900 + i * 8);
      const answers = await Promise.all(
        sizes.map((size) => fetch(`${own.url}/position.png?fen=${START}&size=${size}`)),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(2);
      expect(statuses.filter((s) => s === 503)).toHaveLength(10);
      const busy = answers.find((r) => r.status === 503)!;
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(((await busy.json()) as { error: string }).error).toBe('busy');
      // Once those are done the address may ask again; a picture asked twice at once is one rendering.
      const same = await Promise.all(
        [0, 1, 2, 3].map(() => fetch(`${own.url}/position.png?fen=${START}&size=1500`)),
      );
      expect(same.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const bodies = await Promise.all(same.map(async (r) => Buffer.from(await r.arrayBuffer())));
      expect(new Set(bodies.map((b) => b.toString('base64'))).size).toBe(1);
    } finally {
      await own.close();
    }
  });
});
