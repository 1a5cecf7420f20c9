// The dispute view's read of the journal: a board's sensor events in a time range, through the
// controller and the arbiter-only `sensor-events` call of the WebSocket API.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/index.ts';
import { Controller } from '../../../daemon/controller.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import { TestClient } from '../server/fixtures/ws-client.ts';
import { FakeBoard } from '../fixtures/fake-board.ts';
import { createToyTracker } from '../fixtures/toy-tracker.ts';

const TIMING = { livenessMs: 40, silentMs: 400, lostMs: 800, helloMs: 100, backoffMs: 20, backoffCapMs: 80 };
const TOKEN = 'sensor-token';
let board: FakeBoard;
let journal: Journal;
let ctl: Controller;
let server: RunningServer;

const until = async (what: () => boolean, ms = 4000): Promise<void> => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

beforeAll(async () => {
  board = new FakeBoard('S-9');
  await board.listen(0);
  const config = loadConfig({ flags: { boards: [`tcp://127.0.0.1:${board.port}`] }, env: {} });
  if (!config.ok) throw new Error(config.error.join('\n'));
  journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-sensor-')), 'journal.sqlite'));
  ctl = new Controller({
    config: config.value,
    journal,
    createTracker: createToyTracker,
    timing: TIMING,
    tickMs: 20,
  });
  ctl.start();
  await until(() => ctl.boards()[0].state === 'active');
  for (const [from, to] of [
    [32, 28],
    [19, 23],
  ]) {
    board.send({ t: 0, type: 'lift', square: from });
    board.send({ t: 0, type: 'put', square: to, piece: from > 25 ? 'w' : 'b' });
    await until(() => ctl.snapshot(1)!.moves.at(-1)?.to === to);
  }
  server = await startServer({ hub: ctl, port: 0, tokens: { arbiter: TOKEN } });
});

afterAll(async () => {
  await server?.close();
  ctl?.stop();
  journal?.close();
  await board?.close();
});

describe('sensor events of a board', () => {
  it('the controller reads them from the journal, by time range and limit', () => {
    const all = ctl.sensorEvents(1, 0, Number.MAX_SAFE_INTEGER, 1000);
    const moves = all.filter((e) => e.type === 'lift' || e.type === 'put');
    expect(moves.map((e) => (e.type === 'lift' || e.type === 'put' ? `${e.type} ${e.square}` : ''))).toEqual([
      'lift 32',
      'put 28',
      'lift 19',
      'put 23',
    ]);
    // From the first move's time on: the second move's events only (and what came with them).
    const second = ctl.snapshot(1)!.moves[0].t;
    const after = ctl.sensorEvents(1, second, Number.MAX_SAFE_INTEGER, 1000);
    expect(after.some((e) => e.type === 'lift' && e.square === 32)).toBe(false);
    expect(after.some((e) => e.type === 'lift' && e.square === 19)).toBe(true);
    expect(ctl.sensorEvents(1, 0, Number.MAX_SAFE_INTEGER, 2)).toHaveLength(2);
    expect(ctl.sensorEvents(7, 0, Number.MAX_SAFE_INTEGER, 10)).toEqual([]);
  });

  it('`sensor-events` answers the arbiter only, with the events and whether the answer was cut', async () => {
    const c = await TestClient.open(server.wsUrl);
    const range = { board: 1, from: 0, to: Number.MAX_SAFE_INTEGER };
    const refused = await c.call('sensor-events', range);
    expect(refused).toMatchObject({ response: 'error', param: { code: 'unauthorized' } });
    const answer = await c.call('sensor-events', { ...range, token: TOKEN });
    expect(answer.response).toBe('call');
    expect(answer.param).toMatchObject({ board: 1, round: 1, truncated: false });
    expect(answer.param.events).toEqual(ctl.sensorEvents(1, 0, Number.MAX_SAFE_INTEGER, 1000));
    expect((await c.call('sensor-events', { ...range, board: 9, token: TOKEN })).param.code).toBe(
      'not-found',
    );
    expect((await c.call('sensor-events', { board: 1, from: 'x', to: 1, token: TOKEN })).param.code).toBe(
      'bad-param',
    );
    c.ws.close();
  });
});
