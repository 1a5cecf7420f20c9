// damlink's own clock for a board without one, in the daemon: the presses drive it, the ticks go on
// while it runs however quiet the board, so the flag falls on time; the journal replays it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/index.ts';
import { Controller } from '../../../daemon/controller.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { FakeBoard } from '../fixtures/fake-board.ts';

const TIMING = { livenessMs: 40, silentMs: 400, lostMs: 800, helloMs: 100, backoffMs: 20, backoffCapMs: 80 };
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const until = async (what: () => boolean, ms = 5000): Promise<void> => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

function controller(path: string, source: string) {
  const config = loadConfig({ flags: { boards: [source] }, env: {} });
  if (!config.ok) throw new Error(config.error.join('\n'));
  const journal = Journal.open(path);
  // A 2-second game, ticks every 20 ms, boards quiet after 100 ms would get no more ticks.
  const c = new Controller({
    config: { ...config.value, timeControl: '2' },
    journal,
    createTracker,
    timing: TIMING,
    tickMs: 20,
    tickWindowMs: 100,
  });
  cleanups.push(() => {
    c.stop();
    journal.close();
  });
  return c;
}

describe("damlink's own clock in the daemon", () => {
  it('the flag of a quiet board falls on time, and a restart rebuilds it from the journal', async () => {
    const b = new FakeBoard('DL-7');
    await b.listen();
    cleanups.push(() => b.close());
    const path = join(mkdtempSync(join(tmpdir(), 'damlink-own-clock-')), 'journal.sqlite');
    const c = controller(path, `tcp://127.0.0.1:${b.port}`);
    c.start();
    await until(() => c.boards()[0].state === 'active');
    // Black starts White's clock; then the board says nothing more.
    b.send({ t: 0, type: 'press', side: 'black' });
    await until(() => c.snapshot(1)!.clock?.running === 'white');
    expect(c.snapshot(1)!.clock).toMatchObject({ white: 2000, black: 2000 });
    await until(() => c.snapshot(1)!.alerts.some((a) => a.rule === 'flag'), 6000);
    const s = c.snapshot(1)!;
    expect(s.alerts.find((a) => a.rule === 'flag')).toMatchObject({ side: 'white', ply: 1 });
    expect(s.proposedResult?.result).toBe('0-2');
    expect(s.clock).toMatchObject({ white: 0, running: 'white' });
    c.stop();
    const again = controller(path, 'tcp://127.0.0.1:1');
    expect(again.snapshot(1)!.alerts.find((a) => a.rule === 'flag')).toMatchObject({ side: 'white', ply: 1 });
    // The same game, and one event more: the restart reopened the board's link (connecting).
    expect(again.snapshot(1)!.version).toBe(s.version + 1);
    expect(again.since(1, s.version)).toMatchObject([{ kind: 'state', state: 'connecting' }]);
  });
});
