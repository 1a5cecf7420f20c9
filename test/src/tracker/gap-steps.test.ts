// The gap search in steps: a step of the node budget an input (a tick too), taken up again where it
// stopped, until one line is recorded, several raise a `gap` alert, or the total budget is spent
// (unknown-position). A dump's board stays the one searched while the players play on, their moves
// read from the line found; the same inputs give the same outputs, steps and all.
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { legalMoves, moveNotation, type Position, play } from '../../../src/engine/index.ts';
import { GapSearchRun, searchGap } from '../../../src/tracker/gap/search.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { RESYNC_BUDGET, RESYNC_NODES } from '../../../src/tracker/gap/lost-lines.ts';
import type { TrackerOptions, TrackerOutput } from '../../../src/tracker/types.ts';
import { gapOf, lineKey, sensedBoard } from './fixtures/gap-lines.ts';
import { Script } from './fixtures/hands.ts';

const TICK_MS = 100;

/** The events fed one by one, then ticks every TICK_MS until the search ends: outputs and steps. */
function tracked(events: readonly BoardEvent[], options: TrackerOptions, until: number) {
  const tracker = createTracker(options);
  const outputs: TrackerOutput[] = [];
  /** Inputs fed while a search was under way, and when each one was. */
  const searchingAt: number[] = [];
  /** The positions the tracker said it had searched, each time that changed. */
  const nodesAt: number[] = [];
  const feed = (e: BoardEvent) => {
    if (tracker.searching) searchingAt.push(e.t);
    outputs.push(...tracker.push(e));
    if (tracker.searching && tracker.searchNodes !== nodesAt.at(-1)) nodesAt.push(tracker.searchNodes);
  };
  for (const e of events) feed(e);
  let t = events.at(-1)!.t;
  while (t < until || tracker.searching) {
    t += TICK_MS;
    feed({ t, type: 'tick' });
    if (t > until + 1_000_000) throw new Error('the search never ended');
  }
  const moves = outputs.flatMap((o) => (o.type === 'move' ? [o] : []));
  const alerts = outputs.flatMap((o) => (o.type === 'alert' ? [o.alert] : []));
  return { tracker, outputs, moves, alerts, searchingAt, nodesAt };
}

/** A `hello` and the dump of `board` at t = 1000. */
function dump(from: Position, board: string): Script {
  const s = new Script(from);
  return s.hello().snapshot(board);
}

/** Seed 1, 12 plies, a white man moved a row on: no line found within 256,000 nodes (none proven). */
function unreachable() {
  const far = gapOf(1, 12, false)!;
  const text = [...far.to.toBoardString()];
  const from = text.findIndex((c, i) => c === 'w' && i >= 30 && i < 40);
  const to = text.findIndex((c, i) => c === '.' && i >= 25 && i < 30);
  text[to] = 'w';
  text[from] = '.';
  return { far, text };
}

describe('the gap search in steps', () => {
  // Seed 46, 8 plies: one line, and the search needs more than 4000 nodes to prove it.
  const gap = gapOf(46, 8, false)!;
  const options = { variant: gap.from.variant, start: gap.from };

  it('a search of one step does not settle the gap; resumed, it proves the line with the nodes a whole search takes', () => {
    const board = sensedBoard(gap.to, false);
    expect(searchGap(gap.from, board, { nodes: RESYNC_NODES })).toMatchObject({ complete: false });
    const run = new GapSearchRun(gap.from, board, { nodes: RESYNC_BUDGET.total });
    let found = run.step(RESYNC_NODES);
    expect(found).toBeUndefined();
    while (!found) found = run.step(RESYNC_NODES);
    expect(run.steps).toBeGreaterThan(1);
    expect(found.kind === 'found' && found.complete && found.total).toBe(1);
    expect(found.kind === 'found' && lineKey(found.lines[0].line)).toBe(lineKey(gap.line));
    // One go with the nodes the steps spent settles it the same way.
    const whole = searchGap(gap.from, board, { nodes: found.nodes });
    expect(whole).toMatchObject({ kind: 'found', complete: true, total: 1 });
  });

  it('a dump that needs several steps: settled after several ticks, the line recorded, each move recovered', () => {
    const r = tracked(dump(gap.from, gap.to.toBoardString()).events, options, 1300);
    // The settle (1250) took the first step at the tick of 1300; the ticks after it took the rest.
    expect(r.searchingAt.length).toBeGreaterThan(1);
    expect(r.searchingAt[0]).toBe(1400);
    expect(lineKey(r.moves.map((o) => o.move))).toBe(lineKey(gap.line));
    expect(r.moves.every((o) => o.recovered === true)).toBe(true);
    expect(r.moves.every((o) => o.t === r.searchingAt.at(-1))).toBe(true);
    expect(r.alerts).toEqual([]);
    expect(r.tracker.searching).toBe(false);
    expect(r.tracker.state.position.equals(gap.to)).toBe(true);
  });

  it("a board played on mid-search: the dump's board stays the one searched, the move played since read from its line", () => {
    const still = tracked(dump(gap.from, gap.to.toBoardString()).events, options, 1300);
    const next = legalMoves(gap.to).find((m) => moveNotation(gap.to, m) === '28-22')!;
    const after = play(gap.to, next);
    const s = dump(gap.from, gap.to.toBoardString());
    s.wait(300).tick(); // 1300: the first step
    s.wait(50).lift(28); // 1350
    s.wait(50).put(22, 'w'); // 1400
    const r = tracked(s.events, options, 1800);
    expect(lineKey(r.moves.map((o) => o.move))).toBe(lineKey([...gap.line, next]));
    // The lost plies found, the move since seen: not recovered.
    expect(r.moves.map((o) => o.recovered === true)).toEqual([...gap.line.map(() => true), false]);
    expect(r.alerts).toEqual([]);
    expect(r.tracker.state.position.equals(after)).toBe(true);
    // Not restarted: the steps of the dump's board alone, taken at every input from the first on.
    const steps = r.searchingAt.filter((t) => t >= 1300 && t <= r.moves[0].t).length;
    expect(steps).toBe(still.searchingAt.length);
  });

  it('a piece lifted and put back mid-search: the search goes on where it stopped, no restart', () => {
    const still = tracked(dump(gap.from, gap.to.toBoardString()).events, options, 1300);
    const s = dump(gap.from, gap.to.toBoardString());
    s.wait(300).tick(); // 1300: the first step
    s.wait(50);
    s.put(28, s.lift(28)); // 1350, back at once
    const touched = tracked(s.events, options, 1600);
    expect(touched.moves.map((o) => o.pdn)).toEqual(still.moves.map((o) => o.pdn));
    // The steps left after the first are taken at the inputs from 1350 on (the hands at work do not
    // hold the dump's search back): a restart would take them all again.
    const left = still.searchingAt.length;
    expect(touched.moves[0].t).toBe(1350 + (left - 2) * TICK_MS);
  });

  it('the same inputs give the same outputs, step for step (a replay of the journal)', () => {
    const s = dump(gap.from, gap.to.toBoardString());
    s.wait(300).tick();
    s.wait(50).lift(28);
    s.wait(50).put(22, 'w');
    const first = tracked(s.events, options, 1700);
    const again = tracked(s.events, options, 1700);
    expect(again.outputs).toEqual(first.outputs);
    expect(again.searchingAt).toEqual(first.searchingAt);
  });

  it('the whole budget spent without a line: unknown-position, when the search ends (after the stall time)', () => {
    const { far, text } = unreachable();
    // The tracker's step, and a total that outlasts the stall time at a tick every 100 ms.
    const gapBudget = { step: RESYNC_BUDGET.step, total: 80 * RESYNC_BUDGET.step };
    const r = tracked(
      dump(far.from, text.join('')).events,
      { variant: far.from.variant, start: far.from, gapBudget },
      1300,
    );
    // One step an input from the settle on: the total budget in steps of the step budget.
    expect(r.searchingAt.length + 1).toBe(80);
    const end = r.searchingAt.at(-1)!;
    // The stall time (5000) came while it searched: it decides once the search found nothing.
    expect(end).toBeGreaterThan(5000);
    expect(r.alerts.map((a) => [a.rule, a.t])).toEqual([['unknown-position', end]]);
    expect(r.moves).toEqual([]);
  });

  it('a search spent before the stall time: unknown-position at the stall time, as with one step', () => {
    const { far, text } = unreachable();
    const gapBudget = { step: 1000, total: 4000 };
    const r = tracked(
      dump(far.from, text.join('')).events,
      { variant: far.from.variant, start: far.from, gapBudget },
      5500,
    );
    expect(r.searchingAt).toEqual([1400, 1500, 1600]);
    expect(r.alerts.map((a) => [a.rule, a.t])).toEqual([['unknown-position', 5000]]);
  });

  it('granted steps: untagged inputs take none, a tick takes the steps it grants, to the same line', () => {
    const tracker = createTracker({ ...options, searchSteps: 'granted' });
    const events = dump(gap.from, gap.to.toBoardString()).events;
    for (const e of events) tracker.push(e);
    let t = events.at(-1)!.t;
    for (let i = 0; i < 30; i++) tracker.push({ t: (t += TICK_MS), type: 'tick' });
    // Settled and searching, but no step was granted.
    expect(tracker.searching).toBe(true);
    expect(tracker.searchNodes).toBe(0);
    tracker.push({ t: (t += TICK_MS), type: 'tick', steps: 3 });
    expect(tracker.searchNodes).toBeGreaterThan(2 * RESYNC_NODES);
    expect(tracker.searchNodes).toBeLessThanOrEqual(3 * RESYNC_NODES);
    const outputs: TrackerOutput[] = [];
    while (tracker.searching) outputs.push(...tracker.push({ t: (t += TICK_MS), type: 'tick', steps: 2 }));
    const moves = outputs.flatMap((o) => (o.type === 'move' ? [o.move] : []));
    expect(lineKey(moves)).toBe(lineKey(gap.line));
  });

  it("a board played on while it is searched: the dump budget is the episode's, so unknown-position still comes", () => {
    const { far, text } = unreachable();
    // 20 steps of 500 nodes in all; the board changes every 8 ticks, between two boards neither of
    // which a line reaches (a man of the far board stepped back and forth on the board).
    const gapBudget = { step: RESYNC_NODES, total: 20 * RESYNC_NODES };
    const square = 1 + text.findIndex((c, i) => c === 'b' && i < 20 && text[i + 5] === '.');
    const s = dump(far.from, text.join(''));
    for (let i = 0; i < 12; i++) {
      for (let k = 0; k < 8; k++) s.wait(TICK_MS).tick();
      const [a, b] = i % 2 === 0 ? [square, square + 5] : [square + 5, square];
      s.lift(a);
      s.wait(100).put(b, 'b');
    }
    for (let k = 0; k < 60; k++) s.wait(TICK_MS).tick();
    const r = tracked(s.events, { variant: far.from.variant, start: far.from, gapBudget }, 0);
    expect(r.alerts.map((a) => a.rule)).toEqual(['unknown-position']);
    // The positions shown go on counting across the changes, up to the dump's budget.
    const shown = r.nodesAt.slice(0, 20);
    expect(shown).toEqual(shown.map((_, i) => (i + 1) * RESYNC_NODES));
    expect(r.moves).toEqual([]);
    // A step an input while searching: the dump's 20 steps in all, then a stuck board's search (4
    // steps) a change — not 20 steps afresh at every change.
    expect(r.searchingAt.length).toBeLessThanOrEqual(20 + 4 * 12);
  });
});
