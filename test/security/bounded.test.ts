// Bounded everything: connections in all and per address, unsent bytes across all clients, a board
// link that floods bytes without a message, a round nobody played, the journal's round queries and
// the caches.
import type { Socket } from 'node:net';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import { createBoardEncoder, createDecoder, startPosition } from '../../firmware-protocol/index.ts';
import { MAX_SIZE } from '../../firmware-protocol/dgt/constants.ts';
import { MAX_LINE } from '../../firmware-protocol/line/frame.ts';
import { RoundRebuilding } from '../../daemon/hub.ts';
import { Journal } from '../../daemon/journal/index.ts';
import { AuthLimiter } from '../../daemon/server/auth.ts';
import { PdnCache } from '../../daemon/views/rounds.ts';
import { BoardConnection } from '../../daemon/transport/connection.ts';
import { RAW_KEPT } from '../../daemon/transport/raw-kept.ts';
import { protocolDriver } from '../../daemon/transport/protocol.ts';
import { alertOutput } from '../daemon/fixtures/alerts.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { stalledSubscriber, TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { removeTempDirs, type Served, serve, tempDir } from './fixtures/helpers.ts';

let served: Served | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await served?.close();
  served = undefined;
  removeTempDirs();
});

const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('connections', () => {
  it('are limited in all and per address; a refused one leaves room for others', async () => {
    served = await serve({ limits: { connections: 5, connectionsPerAddress: 3 } });
    const url = served.server.wsUrl;
    const from = (localAddress: string) => TestClient.open(url, { localAddress });
    const first = await Promise.all([from('127.0.0.1'), from('127.0.0.1'), from('127.0.0.1')]);
    await expect(from('127.0.0.1')).rejects.toThrow();
    const others = await Promise.all([from('127.0.0.2'), from('127.0.0.2')]);
    await expect(from('127.0.0.3')).rejects.toThrow(); // five in all
    first[0].close();
    await until(() => served!.server.clients() === 4);
    const again = await from('127.0.0.3');
    expect((await again.call('ping')).param).toBe('pong');
    for (const c of [...first, ...others, again]) c.close();
  });
});

async function stalledClient(port: number, subscribe: object): Promise<Socket> {
  const socket = await stalledSubscriber(port, subscribe);
  sockets.push(socket);
  return socket;
}

describe('unsent bytes', () => {
  it('have one budget for all clients: the one furthest behind is dropped first, readers stay', async () => {
    served = await serve({ limits: { maxBuffered: 256 * 1024 * 1024, unsentBudget: 2 * 1024 * 1024 } });
    const { hub, server } = served;
    const everything = await stalledClient(server.port, { feed: 'round' });
    const oneBoard = await stalledClient(server.port, { feed: 'board', board: 2 });
    const reader = await served.open();
    await reader.call('subscribe', { feed: 'round', id: 'r' });
    await until(() => server.clients() === 3);
    const big = 'x'.repeat(16 * 1024);
    let sent = 0;
    for (let turn = 0; turn < 400 && server.clients() === 3; turn++) {
      for (let i = 0; i < 20; i++) {
        sent++;
        const board = sent % 10 === 0 ? 2 : 1;
        hub.feed(board, alertOutput(sent, `a${sent}`, big));
      }
      await reader.wait((m) => m.id === 'r' && m.param.alert?.id === `a${sent}`);
    }
    expect(server.clients()).toBe(2);
    expect(served.logged).toContainEqual(
      expect.objectContaining({ obj: expect.objectContaining({ reason: 'send budget exceeded' }) }),
    );
    // Reading again, the client that had the most waiting finds its connection cut; the other not.
    everything.on('error', () => {});
    everything.resume();
    oneBoard.resume();
    await until(() => everything.closed);
    await new Promise((r) => setTimeout(r, 200));
    expect(oneBoard.closed).toBe(false);
    expect(server.clients()).toBe(2);
    expect(reader.feeds('r').filter((m) => m.param.kind === 'alert')).toHaveLength(sent);
  });
});

/** `n` alerts of ~200 bytes each, as a tracker would raise them: a round worth catching up with. */
const paddedAlerts = (n: number, idPrefix: string) =>
  Array.from({ length: n }, (_, i) => alertOutput(i, `${idPrefix}${i}`, 'x'.repeat(200)));

describe('catch-ups (whole rounds) per address', () => {
  it('re-subscribing over many connections is refused past the address budget; another address is served', async () => {
    const hub = new FakeHub(8);
    for (let board = 1; board <= 8; board++) hub.feed(board, ...paddedAlerts(40, `a${board}-`));
    served = await serve({ limits: { catchUpBytesPerSecond: 64 * 1024 } }, hub);
    const flooders = await Promise.all([1, 2, 3, 4].map(() => served!.open()));
    let refused = 0;
    let caughtUp = 0;
    for (let i = 0; i < 20; i++) {
      for (const c of flooders) {
        const answer = await c.call('subscribe', { feed: 'round', id: 'same' });
        if (answer.response === 'error') {
          expect(answer.param.code).toBe('rate-limited');
          refused++;
        } else caughtUp++;
      }
    }
    // A round here is ~100 KB: the burst (4 s × 64 KiB) lets three through, then the budget holds.
    const sent = flooders.flatMap((c) => c.feeds('same')).reduce((n, m) => n + JSON.stringify(m).length, 0);
    expect(sent / caughtUp).toBeGreaterThan(80_000);
    expect(caughtUp).toBeLessThanOrEqual(4);
    expect(refused).toBeGreaterThanOrEqual(76);
    const games = await flooders[0].call('games', {});
    expect(games.param.code).toBe('rate-limited');
    // Another host on the hall network still gets the whole round.
    const other = await served.open('', { localAddress: '127.0.0.2' });
    const answer = await other.call('subscribe', { feed: 'round', id: 'r' });
    expect(answer.response).toBe('call');
    await other.wait((m) => m.id === 'r' && m.param.kind === 'snapshot' && m.param.board === 8);
  });
});

describe('one board asked for again and again (games with a board) per address', () => {
  it('is paid from the address budget: refused past it, however many connections ask; another address is served', async () => {
    const hub = new FakeHub(2);
    hub.feed(1, ...paddedAlerts(60, 'a'));
    served = await serve({ limits: { catchUpBytesPerSecond: 16 * 1024 } }, hub);
    const flooders = await Promise.all([1, 2, 3, 4, 5].map(() => served!.open()));
    let answered = 0;
    let refused = 0;
    let bytes = 0;
    for (let i = 0; i < 40; i++)
      for (const c of flooders) {
        const answer = await c.call('games', { board: 1 });
        if (answer.response === 'error') {
          expect(answer.param.code).toBe('rate-limited');
          refused++;
        } else {
          answered++;
          bytes += JSON.stringify(answer.param).length;
          expect(answer.param[0].info.board).toBe(1);
        }
      }
    // The burst (4 s × 16 KiB) and what a second adds, not 200 snapshots of ~17 KB.
    expect(bytes / answered).toBeGreaterThan(10_000);
    expect(bytes).toBeLessThan(6 * 16 * 1024);
    expect(refused).toBeGreaterThan(150);
    // The board list is paid from the same budget.
    expect((await flooders[0].call('boards', {})).param.code).toBe('rate-limited');
    const other = await served.open('', { localAddress: '127.0.0.2' });
    const answer = await other.call('games', { board: 1 });
    expect(answer.response).toBe('call');
  });
});

describe('a board link that sends bytes without a message', () => {
  const faults = (events: BoardEvent[]) =>
    events.filter((e) => e.type === 'fault').map((e) => (e.type === 'fault' ? [e.code, e.resync] : []));

  it('line: a fault and a resync for every line’s worth without an LF, while the bytes still come', () => {
    const decoder = createDecoder('line');
    const chunk = new Uint8Array(4096).fill(0x41);
    const seen: BoardEvent[] = [];
    for (let i = 0; i < 256; i++) seen.push(...decoder.push(chunk, i)); // 1 MiB, no LF
    expect(faults(seen).length).toBeGreaterThanOrEqual(Math.floor((256 * 4096) / (MAX_LINE + 1)) / 21);
    expect(new Set(faults(seen).map(String))).toEqual(new Set(['line-too-long,true']));
    // The first fault comes with the first chunk past the limit, not at an LF that never comes.
    expect(faults(decoder.push(chunk, 999))).toEqual([['line-too-long', true]]);
  });

  it('DGT: a fault and a resync for every longest message’s worth of bytes outside a message', () => {
    const decoder = createDecoder('dgt');
    const chunk = new Uint8Array(4096).fill(0x11);
    const seen: BoardEvent[] = [];
    for (let i = 0; i < 256; i++) seen.push(...decoder.push(chunk, i));
    expect(faults(seen).length).toBe(Math.ceil((256 * 4096) / MAX_SIZE));
    expect(new Set(faults(seen).map(String))).toEqual(new Set(['garbage,true']));
  });

  it('HID: a report far longer than any board’s is a fault with resync, not a board', () => {
    const decoder = createDecoder('hid');
    const report = createBoardEncoder('hid').encode({ t: 0, type: 'snapshot', board: startPosition(10) });
    const long = new Uint8Array(64 * 1024);
    long.set(report);
    expect(faults(decoder.push(long, 1))).toEqual([['long-report', true]]);
    expect(decoder.push(report, 2).map((e) => e.type)).toEqual(['snapshot']);
  });

  it('the raw bytes journaled with the next events stay bounded (1 MiB of repeated reports)', async () => {
    const encoder = createBoardEncoder('hid');
    const report = encoder.encode({ t: 0, type: 'snapshot', board: startPosition(10) });
    let onData: ((bytes: Uint8Array) => void) | undefined;
    const raws: number[] = [];
    const conn = new BoardConnection({
      source: 'hid:test',
      driver: protocolDriver('hid'),
      open: async (handlers) => {
        onData = handlers.onData;
        return {
          hello: { t: 0, type: 'hello', serial: 'HID-1', protocol: 'hid', squares: 50, senses: 'pieces' },
          write() {},
          close() {},
        };
      },
      events: { onState() {}, onEvents: (_serial, _events, raw) => raws.push(raw.length) },
    });
    conn.start();
    await until(() => onData !== undefined);
    onData!(report); // the first picture: a snapshot
    for (let sent = 0; sent < 1024 * 1024; sent += report.length) onData!(report); // identical: nothing
    onData!(encoder.encode({ t: 1, type: 'lift', square: 32 }));
    conn.stop();
    expect(raws.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...raws)).toBeLessThanOrEqual(RAW_KEPT);
  });
});

describe('a round nobody played', () => {
  it('answers 404 without asking the hub to rebuild it', async () => {
    served = await serve();
    const res = await fetch(`${served.server.url}/rounds/77/games.pdn`);
    expect(res.status).toBe(404);
    const c = await served.open();
    expect((await c.call('games', { round: 78 })).param).toEqual([]);
    expect(served.hub.gamesAsked.filter((r) => r !== served!.hub.round())).toEqual([]);
  });

  it('a past round being rebuilt off the loop: HTTP 503 with Retry-After, busy on the socket, then served', async () => {
    class Rebuilding extends FakeHub {
      ready = false;
      override hasRound(round: number): boolean {
        return round === 2 || super.hasRound(round);
      }
      override games(round: number) {
        if (round === 2 && !this.ready) throw new RoundRebuilding(2);
        return super.games(round === 2 ? this.round() : round);
      }
    }
    const hub = new Rebuilding(2);
    served = await serve({}, hub);
    const res = await fetch(`${served.server.url}/rounds/2/games.pdn`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(((await res.json()) as { error: string }).error).toBe('busy');
    const c = await served.open();
    expect((await c.call('games', { round: 2 })).param.code).toBe('busy');
    const refused = await c.call('subscribe', { feed: 'round', round: 2, id: 'past' });
    expect(refused.param.code).toBe('busy');
    expect(c.feeds('past')).toEqual([]);
    hub.ready = true;
    expect((await fetch(`${served.server.url}/rounds/2/games.pdn`)).status).toBe(200);
    expect((await c.call('subscribe', { feed: 'round', round: 2, id: 'past' })).response).toBe('call');
  });

  it('is looked up in the journal through its round index, and so are the round passes', () => {
    const file = `${tempDir()}/journal.sqlite`;
    const journal = Journal.open(file);
    journal.appendMany([
      { round: 1, board: 1, t: 0, input: { kind: 'event', event: { t: 0, type: 'tick' } } },
    ]);
    expect(journal.hasRound(1)).toBe(true);
    expect(journal.hasRound(77)).toBe(false);
    journal.close();
    const db = new Database(file, { readonly: true });
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail).join('; ');
    expect(plan('SELECT 1 FROM journal WHERE round = 77 LIMIT 1')).toMatch(/journal_round/);
    expect(
      plan(
        'SELECT id, board, seq, t, kind, data FROM journal WHERE round = 3 AND id > 0 ORDER BY id LIMIT 10',
      ),
    ).toMatch(/journal_round/);
    expect(plan('SELECT board, MAX(version) FROM derived WHERE round = 3 GROUP BY board')).toMatch(
      /derived_round/,
    );
    db.close();
  });
});

describe('caches', () => {
  it('PDN texts and wrong-token counts are kept for a bounded number of keys', () => {
    const pdn = new PdnCache();
    const game = new FakeHub(1).snapshot(1)!;
    for (let board = 1; board <= 5000; board++) pdn.of({ ...game, info: { ...game.info, board } });
    expect(pdn.size).toBeLessThanOrEqual(2048);

    const limiter = new AuthLimiter({ failures: 1, addresses: 100 });
    limiter.failed('10.0.0.1');
    expect(limiter.allows('10.0.0.1')).toBe(false);
    for (let i = 0; i < 1000; i++) limiter.failed(`10.1.${i >> 8}.${i & 255}`);
    // Forgotten to keep the table bounded (at worst an address gets a fresh window).
    expect(limiter.allows('10.0.0.1')).toBe(true);
  });
});
