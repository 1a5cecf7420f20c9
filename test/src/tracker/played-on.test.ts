// A long gap searched while the players play on (a board that remembers nothing, back after a
// daemon's restart, its players moving every few seconds): the dump's board stays the one searched,
// their moves are kept meanwhile, and once the line is found they are read from its end. The record
// comes out whole — the lost plies recovered, the moves since as seen — instead of a search that
// starts again at every move and ends in unknown-position.
import { describe, expect, it } from 'vitest';
import { type Move, type Position, play } from '../../../src/engine/index.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { RESYNC_NODES } from '../../../src/tracker/gap/lost-lines.ts';
import type { TrackerOutput } from '../../../src/tracker/types.ts';
import { createRng } from '../../../simulator/prng.ts';
import { chooseMove } from '../../../simulator/selfplay.ts';
import { type Gap, gapOf, lineKey, reconnected } from './fixtures/gap-lines.ts';

/** Steps of the search an input: a hard gap outlasts many moves. */
const gapBudget = { step: RESYNC_NODES, total: 2_000_000 };

/** Gap `gap`, the dump at 1000, then `plies` moves played by hand from it; then ticks until it settles. */
function playedOn(gap: Gap, plies: number, afterDump = 1000) {
  const s = reconnected(gap).wait(afterDump);
  const rng = createRng(gap.seed * 7);
  let pos: Position = gap.to;
  const played: Move[] = [];
  for (let i = 0; i < plies; i++) {
    const m = chooseMove(pos, i + 1, rng);
    if (!m) break;
    s.play(m, pos.turn, { touchLandings: false });
    played.push(m);
    pos = play(pos, m);
  }
  const tracker = createTracker({
    variant: gap.variant,
    start: gap.from,
    occupancyOnly: gap.occupancyOnly,
    gapBudget,
  });
  const outputs: TrackerOutput[] = [];
  let searchedUntil = 0;
  for (const e of s.events) {
    outputs.push(...tracker.push(e));
    if (tracker.searching) searchedUntil = e.t;
  }
  let t = s.t;
  for (let i = 0; i < 5000 && (tracker.searching || i < 30); i++)
    outputs.push(...tracker.push({ t: (t += 100), type: 'tick' }));
  const moves = outputs.flatMap((o) => (o.type === 'move' ? [o] : []));
  const alerts = outputs.flatMap((o) => (o.type === 'alert' ? [o.alert] : []));
  return { tracker, moves, alerts, played, end: pos, searchedUntil, firstMoveAt: s.events[2]?.t ?? 0 };
}

describe('a long gap searched while the players play on', () => {
  it('12 plies lost, one line, 20 moves played meanwhile: the line recovered, the moves since as seen, no alert', () => {
    const gap = gapOf(44, 12)!;
    const r = playedOn(gap, 20);
    // The search outlasted several of the moves played since.
    expect(r.searchedUntil).toBeGreaterThan(r.firstMoveAt + 5 * 3000);
    expect(lineKey(r.moves.map((o) => o.move))).toBe(lineKey([...gap.line, ...r.played]));
    expect(r.moves.map((o) => o.recovered === true)).toEqual([
      ...gap.line.map(() => true),
      ...r.played.map(() => false),
    ]);
    expect(r.alerts).toEqual([]);
    expect(r.tracker.state.position.equals(r.end)).toBe(true);
    expect(r.tracker.state.pending).toEqual([]);
  });

  it('several lines: a gap alert, its first line provisional, the moves since recorded after it', () => {
    const gap = gapOf(46, 12)!;
    const r = playedOn(gap, 12);
    expect(r.alerts.map((a) => a.rule)).toEqual(['gap']);
    expect(r.alerts[0].candidates!.length).toBeGreaterThan(1);
    const provisional = r.moves.filter((o) => o.provisional);
    expect(provisional).toHaveLength(12);
    // The moves since, as played, from the provisional line's end (it reaches the same board).
    expect(lineKey(r.moves.slice(12).map((o) => o.move))).toBe(lineKey(r.played));
    expect(r.tracker.state.position.equals(r.end)).toBe(true);
  });

  it('a board of occupancy alone: the moves since read from the kept events once the line is known', () => {
    const gap = gapOf(45, 12)!;
    expect(gap.occupancyOnly).toBe(true);
    const r = playedOn(gap, 10);
    expect(r.searchedUntil).toBeGreaterThan(r.firstMoveAt);
    expect(lineKey(r.moves.slice(12).map((o) => o.move))).toBe(lineKey(r.played));
    expect(r.moves.slice(12).every((o) => !o.recovered && !o.irregular)).toBe(true);
    expect(r.alerts.every((a) => a.rule === 'gap')).toBe(true);
    expect(r.tracker.state.pending).toEqual([]);
  });

  it('the dump caught the first move under way: the search moves to the board at the press, and the game comes out whole', () => {
    const gap = gapOf(44, 12)!;
    const r = playedOn(gap, 20, 0);
    expect(r.moves).toHaveLength(12 + 20);
    expect(lineKey(r.moves.slice(13).map((o) => o.move))).toBe(lineKey(r.played.slice(1)));
    expect(r.alerts.every((a) => a.rule === 'gap')).toBe(true);
    expect(r.tracker.state.position.equals(r.end)).toBe(true);
    expect(r.tracker.state.pending).toEqual([]);
  });

  it('the same inputs give the same outputs (a replay of the journal)', () => {
    const gap = gapOf(44, 12)!;
    const a = playedOn(gap, 8, 0);
    const b = playedOn(gap, 8, 0);
    expect(a.moves).toHaveLength(12 + 8);
    expect(b.moves).toEqual(a.moves);
  });
});
