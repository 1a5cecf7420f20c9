// An arbiter's decision, a result or a change of players is answered only once it is on the disk
// itself (the journal synced, not only written), and refused — nothing applied — when the journal
// cannot write; the boards' own events are then tracked from memory and journaled, in order, once
// it can again. Real journal file, real controller, a board over TCP.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../daemon/config/index.ts';
import { Controller, type ControllerOptions } from '../../daemon/controller.ts';
import type { JournalHealth } from '../../daemon/hub.ts';
import { Journal } from '../../daemon/journal/index.ts';
import { FakeBoard } from '../daemon/fixtures/fake-board.ts';
import { entries } from '../daemon/fixtures/journal-rows.ts';
import { createToyTracker } from '../daemon/fixtures/toy-tracker.ts';
import { TIMING, until } from '../daemon/fixtures/controller-timing.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function configFor(source: string) {
  const config = loadConfig({ flags: { boards: [source] }, env: {} });
  if (!config.ok) throw new Error(config.error.join('\n'));
  return config.value;
}

/** A started controller on one fake board, with its journal. */
async function daemon(options: Partial<ControllerOptions> = {}) {
  const board = new FakeBoard('S-1');
  await board.listen();
  cleanups.push(() => board.close());
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-durable-')), 'journal.sqlite'));
  const overflows: JournalHealth[] = [];
  const c = new Controller({
    config: configFor(`tcp://127.0.0.1:${board.port}`),
    journal,
    createTracker: createToyTracker,
    timing: TIMING,
    tickMs: 20,
    onJournalOverflow: (h) => overflows.push(h),
    ...options,
  });
  c.start();
  cleanups.push(() => {
    c.stop();
    journal.close();
  });
  await until(() => c.boards()[0].state === 'active');
  const play = async (from: number, to: number, piece: 'w' | 'b'): Promise<void> => {
    board.send({ t: 0, type: 'lift', square: from });
    board.send({ t: 0, type: 'put', square: to, piece });
    await until(() => c.snapshot(1)!.moves.at(-1)?.to === to);
  };
  return { c, journal, play, overflows, board };
}

/** Whether `p` has settled after the event loop had time to do everything else. */
async function settledSoon(p: Promise<unknown>): Promise<boolean> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((r) => setTimeout(r, 100));
  return settled;
}

/** A journal whose writes fail as on a full disk while `full` is true. */
function diskFullWhile(journal: Journal, full: () => boolean): void {
  const append = journal.appendMany.bind(journal);
  journal.appendMany = (...args) => {
    if (full()) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    append(...args);
  };
}

describe('arbiter calls are durable before they are answered', () => {
  for (const [name, call] of [
    ['a result', (c: Controller) => c.setResult(1, '1-1')],
    ['a change of players', (c: Controller) => c.setInfo(1, { white: 'Anna Ivanova' })],
    ['a decision', (c: Controller) => c.decide(1, { alertId: 'none', kind: 'stands' })],
  ] as const) {
    it(`${name} is answered only after the journal is synced to disk`, async () => {
      const { c, journal } = await daemon();
      let synced: () => void = () => {};
      let syncs = 0;
      const sync = journal.sync.bind(journal);
      journal.sync = async () => {
        syncs++;
        const released = new Promise<void>((r) => (synced = r));
        await sync();
        await released;
      };
      const kind = name === 'a result' ? 'result' : name === 'a decision' ? 'decision' : 'info';
      const journaled = () => entries(journal, 1, 1).filter((e) => e.input.kind === kind).length;
      const before = journaled();
      const answer = call(c);
      expect(await settledSoon(answer)).toBe(false);
      expect(syncs).toBe(1);
      // Written before the sync was asked for: the sync covers it.
      expect(journaled()).toBe(before + 1);
      synced();
      await answer;
    });
  }

  it('the real sync resolves on a journal file', async () => {
    const { journal } = await daemon();
    await expect(journal.sync()).resolves.toBeUndefined();
  });
});

describe('when the journal cannot write', () => {
  it('refuses arbiter calls with journal-unavailable and applies none; boards are tracked from memory', async () => {
    const { c, journal, play, overflows } = await daemon();
    await play(32, 28, 'w');
    let full = true;
    diskFullWhile(journal, () => full);
    await play(17, 21, 'b');
    await until(() => c.journalHealth().ok === false);
    const health = c.journalHealth();
    expect(health.reason).toMatch(/^SQLITE_FULL/);
    expect(health.behind).toBeGreaterThan(0);

    for (const call of [
      () => c.setResult(1, '2-0'),
      () => c.setInfo(1, { black: 'Jan Groenendijk' }),
      () => c.decide(1, { alertId: 'none', kind: 'stands' }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'journal-unavailable' });
    }
    const snap = c.snapshot(1)!;
    expect(snap.result).toBe('*');
    expect(snap.info.black).toBeUndefined();
    // Still tracked while the journal is behind.
    await play(31, 27, 'w');
    expect(c.snapshot(1)!.moves.map((m) => m.pdn)).toEqual(['32-28', '17-21', '31-27']);

    full = false;
    await until(() => c.journalHealth().ok, 8000);
    expect(c.journalHealth().behind).toBe(0);
    expect(overflows).toEqual([]);
    // Everything applied is journaled, in order, without gaps: a replay rebuilds the served game.
    const rows = entries(journal, 1, 1);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.some((r) => r.input.kind === 'result' || r.input.kind === 'decision')).toBe(false);
    const served = c.snapshot(1)!;
    c.stop();
    const again = new Controller({
      config: configFor('tcp://127.0.0.1:1'),
      journal,
      createTracker: createToyTracker,
      timing: TIMING,
    });
    cleanups.push(() => {
      again.stop();
    });
    expect(again.snapshot(1)!.moves).toEqual(served.moves);
  });

  it('reports the overflow once the inputs kept in memory pass the bound', async () => {
    const { journal, overflows, board } = await daemon({ journalBacklog: 20 });
    diskFullWhile(journal, () => true);
    for (let i = 0; i < 30; i++) board.send({ t: 0, type: 'lift', square: 31 + (i % 2) });
    await until(() => overflows.length > 0);
    expect(overflows).toHaveLength(1);
    expect(overflows[0].bound).toBe(20);
    expect(overflows[0].behind).toBeGreaterThan(0);
  });
});
