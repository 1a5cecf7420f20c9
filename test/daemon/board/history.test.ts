// A board that keeps its history (line protocol 1.1, `caps=history`): after a reconnect, a restart of
// the daemon or a line lost on the link, the daemon asks for the changes it missed and plays them
// with the board's own times — the record equals what was played, with no alert the play does not
// deserve and no search. A board whose memory no longer reaches, or a 1.0 board, is read afresh.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/index.ts';
import { Controller } from '../../../daemon/controller.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { TIMING, until } from '../fixtures/controller-timing.ts';
import { FakeBoard } from '../fixtures/fake-board.ts';
import { entries } from '../fixtures/journal-rows.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const dataPath = () => join(mkdtempSync(join(tmpdir(), 'damlink-history-')), 'journal.sqlite');

async function historyBoard(capabilities = ['history']): Promise<FakeBoard> {
  const b = new FakeBoard('HB-1', 'line', capabilities);
  await b.listen();
  cleanups.push(() => b.close());
  return b;
}

function start(path: string, b: FakeBoard) {
  const config = loadConfig({ flags: { boards: [`tcp://127.0.0.1:${b.port}`] }, env: {} });
  if (!config.ok) throw new Error(config.error.join('\n'));
  const journal = Journal.open(path);
  const c = new Controller({ config: config.value, journal, createTracker, timing: TIMING, tickMs: 20 });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    c.stop();
    journal.close();
  };
  cleanups.push(stop);
  c.start();
  return { c, journal, stop };
}

/** Connected, and the dump asked on connect answered (this board's dump is `board`, not its moves). */
async function ready(c: Controller, b: FakeBoard): Promise<void> {
  await until(() => c.boards()[0].state === 'active' && b.commands.some((cmd) => cmd.type === 'snapshot'));
  await new Promise((r) => setTimeout(r, 100));
}

/** A controller on `b` that has recorded White's first move, 32-28, from the board. */
async function afterFirstMove(path: string, b: FakeBoard) {
  const started = start(path, b);
  await ready(started.c, b);
  for (const e of move(32, 28, 'w', 1000)) b.send(e);
  await until(() => moves(started.c).length === 1);
  return started;
}

/** The board's link drops, and the controller has seen it go. */
async function unplug(c: Controller, b: FakeBoard): Promise<void> {
  b.unplug();
  await until(() => c.boards()[0].state === 'lost');
}

const moves = (c: Controller) => c.snapshot(1)!.moves.map((m) => m.pdn);
const alerts = (c: Controller) => c.snapshot(1)!.alerts.map((a) => a.rule);

/** One quiet move as the hands make it: lift, put 240 ms later, the clock pressed 300 ms after. */
function move(from: number, to: number, piece: 'w' | 'b', t: number): BoardEvent[] {
  return [
    { t, type: 'lift', square: from },
    { t: t + 240, type: 'put', square: to, piece },
    { t: t + 540, type: 'press', side: piece === 'w' ? 'white' : 'black' },
  ];
}

/** The start position with these quiet moves made on it. */
function boardAfter(...made: [number, number, 'w' | 'b'][]): string {
  const cells = [...'bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww'];
  for (const [from, to, piece] of made) {
    cells[from - 1] = '.';
    cells[to - 1] = piece;
  }
  return cells.join('');
}

/** The journaled board events of board 1, in order. */
function journaled(path: string): BoardEvent[] {
  const j = Journal.open(path, { readonly: true });
  try {
    return entries(j, 1, 1).flatMap((e) => (e.input.kind === 'event' ? [e.input.event] : []));
  } finally {
    j.close();
  }
}

const recalled = (events: BoardEvent[]) =>
  events.filter((e) => (e.type === 'lift' || e.type === 'put' || e.type === 'press') && e.stamp?.recalled);

describe('a history board (line protocol 1.1)', () => {
  it('after a reconnect: the changes missed are asked for and played with their own intervals; no alert', async () => {
    const path = dataPath();
    const b = await historyBoard();
    const { c } = await afterFirstMove(path, b);
    await unplug(c, b);
    // Played while the link was down: the board keeps the changes; nobody hears them.
    for (const e of [...move(18, 22, 'b', 5000), ...move(37, 32, 'w', 9000)]) b.miss(e);
    b.board = boardAfter([32, 28, 'w'], [18, 22, 'b'], [37, 32, 'w']);
    b.history!.nowMs = 12_000;
    await until(() => moves(c).length === 3, 6000);
    expect(moves(c)).toEqual(['32-28', '18-22', '37-32']);
    expect(alerts(c)).toEqual([]);
    expect(b.commands).toContainEqual({ type: 'history', after: 3 });
    // Played in the board's order, each at the board's own interval from the one before.
    const replayed = recalled(journaled(path));
    expect(replayed.map((e) => e.type)).toEqual(['lift', 'put', 'press', 'lift', 'put', 'press']);
    const gaps = (f: (e: BoardEvent) => number) => replayed.slice(1).map((e, i) => f(e) - f(replayed[i]));
    expect(gaps((e) => e.t)).toEqual(gaps((e) => (e as { stamp: { ms: number } }).stamp.ms));
    expect(gaps((e) => e.t)).toEqual([240, 300, 3460, 240, 300]);
  });

  it('after a line lost on the link (sequence-gap): what followed waits for the lost change; nothing twice', async () => {
    const path = dataPath();
    const b = await historyBoard();
    const { c } = await afterFirstMove(path, b);
    const [lift, put, press] = move(19, 23, 'b', 4000);
    b.miss(lift);
    b.send(put);
    b.send(press);
    await until(() => moves(c).length === 2);
    expect(moves(c)).toEqual(['32-28', '19-23']);
    expect(alerts(c)).toEqual([]);
    const events = journaled(path);
    expect(events.some((e) => e.type === 'fault' && e.code === 'sequence-gap')).toBe(true);
    // The lost lift and the put after it, once each, in the board's order.
    const changes = events.filter((e) => e.type === 'lift' || e.type === 'put');
    expect(changes.map((e) => `${e.type} ${e.square}`)).toEqual(['lift 32', 'put 28', 'lift 19', 'put 23']);
    expect(b.commands.filter((cmd) => cmd.type === 'snapshot').length).toBe(1);
  });

  it('after a restart of the daemon: asked from the last change the journal holds', async () => {
    const path = dataPath();
    const b = await historyBoard();
    const first = await afterFirstMove(path, b);
    first.stop();
    for (const e of move(19, 23, 'b', 30_000)) b.miss(e);
    b.board = boardAfter([32, 28, 'w'], [19, 23, 'b']);
    const second = start(path, b);
    await until(() => moves(second.c).length === 2, 6000);
    expect(moves(second.c)).toEqual(['32-28', '19-23']);
    expect(alerts(second.c)).toEqual([]);
    expect(b.commands).toContainEqual({ type: 'history', after: 3 });
    expect(second.c.boards()[0].searching).toBeUndefined();
  });

  it('a board whose memory no longer reaches the last change stored: read afresh, the gap searched', async () => {
    const path = dataPath();
    const b = await historyBoard();
    const { c } = await afterFirstMove(path, b);
    await unplug(c, b);
    for (const e of move(19, 23, 'b', 5000)) b.miss(e);
    b.history!.kept.splice(0, 5); // changes 1–5 forgotten: 4 and 5 were never heard
    b.board = boardAfter([32, 28, 'w'], [19, 23, 'b']);
    await until(() => moves(c).length === 2, 6000);
    expect(b.commands).toContainEqual({ type: 'history', after: 3 });
    // The dump's search found the one line that leads to the board.
    expect(moves(c)).toEqual(['32-28', '19-23']);
    expect(recalled(journaled(path))).toEqual([]);
  });

  it('a 1.0 board (no history capability) is never asked for history: a dump after each reconnect', async () => {
    const path = dataPath();
    const b = await historyBoard([]);
    const { c } = await afterFirstMove(path, b);
    await unplug(c, b);
    await until(() => c.boards()[0].state === 'active');
    await until(() => b.commands.filter((cmd) => cmd.type === 'snapshot').length >= 2);
    expect(b.commands.some((cmd) => cmd.type === 'history')).toBe(false);
  });
});
