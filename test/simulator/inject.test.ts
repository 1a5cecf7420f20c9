// Each injected irregularity has exactly the sensor shape docs/irregularities.md gives it.
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import {
  geometry,
  legalMoves,
  legalSequences,
  type Move,
  moveKey,
  parseFen,
  Position,
  play,
} from '../../src/engine/index.ts';
import type { RuleId } from '../../src/tracker/types.ts';
import { type SimulatedGame, simulateGame } from '../../simulator/game.ts';
import { INJECTABLE } from '../../simulator/inject.ts';
import { boardAfter, lifts, puts } from './fixtures/helpers.ts';

/** First seed (of 40) whose game injects `rule`, with the injection and the game. */
function gameWith(rule: RuleId, extra: Partial<Parameters<typeof simulateGame>[0]> = {}) {
  for (let seed = 1; seed <= 40; seed++) {
    const game = simulateGame({ seed, inject: [rule], injectProbability: 0.5, noise: 'none', ...extra });
    const inj = game.injected.find((i) => i.rule === rule);
    if (inj) return { game, inj };
  }
  throw new Error(`no game injected ${rule}`);
}

/** Index of the first event at or after t. */
const indexAt = (g: SimulatedGame, t: number) => g.events.findIndex((e) => e.t >= t);
/** Index of the first lift or put at or after t (after-press injections start at the press's t). */
const handAt = (g: SimulatedGame, t: number) =>
  g.events.findIndex((e) => e.t >= t && (e.type === 'lift' || e.type === 'put'));
/** Events from the injection to the next press (inclusive). */
function injectedEvents(g: SimulatedGame, t: number): BoardEvent[] {
  const from = indexAt(g, t);
  const press = g.events.findIndex((e, i) => i >= from && e.type === 'press');
  return g.events.slice(from, press + 1);
}
const positionBefore = (g: SimulatedGame, ply: number): Position => {
  const fen = ply === 1 ? g.startFen : g.moves[ply - 2].fenAfter;
  const r = parseFen(fen);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const moveAt = (g: SimulatedGame, ply: number) => g.moves[ply - 1];
const isPrefixOfLegal = (pos: Position, m: Move) =>
  legalSequences(pos).some(
    (l) =>
      l.from === m.from &&
      m.path.every((s, i) => l.path[i] === s) &&
      m.captured.every((s, i) => l.captured[i] === s),
  );

describe('injected irregularities (docs/irregularities.md)', () => {
  it('5.4.2 a man moved one step backward, no capture available, recorded as from-to', () => {
    const { game, inj } = gameWith('5.4.2');
    const m = moveAt(game, inj.ply);
    const before = positionBefore(game, inj.ply);
    expect(m.irregular).toBe('5.4.2');
    expect(legalMoves(before).every((x) => x.captured.length === 0)).toBe(true);
    const g = geometry(before.variant);
    expect(g.rowOf[m.move.to] - g.rowOf[m.move.from]).toBe(inj.side === 'white' ? 1 : -1);
    expect(m.pdn).toBe(`${m.move.from}-${m.move.to}`);
    const ev = injectedEvents(game, inj.t);
    expect(
      ev
        .filter((e) => e.type === 'lift' || e.type === 'put')
        .map((e) => `${e.type}${'square' in e ? e.square : ''}`),
    ).toEqual([`lift${m.move.from}`, `put${m.move.to}`]);
    expect(ev.at(-1)).toMatchObject({ type: 'press', side: inj.side });
  });

  it("5.4.5 an opponent's man moved in the mover's direction", () => {
    const { game, inj } = gameWith('5.4.5');
    const m = moveAt(game, inj.ply);
    const before = positionBefore(game, inj.ply);
    const piece = before.pieceAt(m.move.from);
    expect(piece).toBe(inj.side === 'white' ? 'b' : 'w');
    const g = geometry(before.variant);
    expect(g.rowOf[m.move.to] - g.rowOf[m.move.from]).toBe(inj.side === 'white' ? -1 : 1);
    expect(m.irregular).toBe('5.4.5');
    expect(parseFen(m.fenAfter).ok && (parseFen(m.fenAfter) as { value: Position }).value.turn).not.toBe(
      inj.side,
    );
  });

  it('5.4.6 a quiet step while a capture was compulsory', () => {
    const { game, inj } = gameWith('5.4.6');
    const m = moveAt(game, inj.ply);
    expect(legalMoves(positionBefore(game, inj.ply))[0].captured.length).toBeGreaterThan(0);
    expect(m.move.captured).toEqual([]);
    expect(m.pdn).toMatch(/^\d+-\d+$/);
  });

  it('5.4.7 a legal quiet move, then a piece away from it taken off and kept off', () => {
    const { game, inj } = gameWith('5.4.7');
    const m = moveAt(game, inj.ply);
    const before = positionBefore(game, inj.ply);
    expect(legalMoves(before).some((x) => moveKey(x) === moveKey(m.move))).toBe(true);
    const ev = injectedEvents(game, inj.t);
    const extra = lifts(ev).filter((s) => s !== m.move.from);
    expect(extra).toHaveLength(1);
    const after = parseFen(m.fenAfter);
    expect(after.ok && after.value.pieceAt(extra[0])).toBeUndefined();
    expect(after.ok && after.value.equals(play(before, m.move))).toBe(false);
  });

  it('5.4.8 a complete capture of fewer pieces that begins no legal capture', () => {
    const { game, inj } = gameWith('5.4.8', { noise: 'realistic' });
    const m = moveAt(game, inj.ply);
    const before = positionBefore(game, inj.ply);
    const max = legalMoves(before)[0].captured.length;
    expect(max).toBeGreaterThanOrEqual(2);
    expect(m.move.captured.length).toBeLessThan(max);
    expect(m.move.captured.length).toBeGreaterThan(0);
    expect(isPrefixOfLegal(before, m.move)).toBe(false);
    expect(m.pdn).toBe(`${m.move.from}x${m.move.to}`);
    expect(lifts(injectedEvents(game, inj.t)).filter((s) => m.move.captured.includes(s))).toEqual(
      m.move.captured,
    );
  });

  it('5.4.9 a multi-capture let go after k jumps, the k pieces removed', () => {
    const { game, inj } = gameWith('5.4.9');
    const m = moveAt(game, inj.ply);
    const before = positionBefore(game, inj.ply);
    expect(isPrefixOfLegal(before, m.move)).toBe(true);
    expect(m.move.captured.length).toBeLessThan(legalMoves(before)[0].captured.length);
    expect(lifts(injectedEvents(game, inj.t)).slice(1)).toEqual(m.move.captured);
  });

  it('5.4.11 the last captured piece (capture order) left on the board at the press', () => {
    const { game, inj } = gameWith('5.4.11');
    const m = moveAt(game, inj.ply);
    const last = m.move.captured.at(-1)!;
    const ev = injectedEvents(game, inj.t);
    expect(lifts(ev)).not.toContain(last);
    expect(lifts(ev).slice(1)).toEqual(m.move.captured.slice(0, -1));
    const board = boardAfter(game.events.slice(0, game.events.indexOf(ev.at(-1)!) + 1));
    expect(board[last - 1]).not.toBe('.');
  });

  for (const [rule, own] of [
    ['5.4.12', false],
    ['5.4.14', true],
  ] as const) {
    it(`${rule} after a normal capture one more ${own ? 'own' : 'opponent'} piece lifted within 1000 ms`, () => {
      const { game, inj } = gameWith(rule);
      const m = moveAt(game, inj.ply);
      const before = positionBefore(game, inj.ply);
      const ev = injectedEvents(game, inj.t).filter((e) => e.type === 'lift');
      expect(ev.slice(1, -1).map((e) => (e.type === 'lift' ? e.square : 0))).toEqual(m.move.captured);
      const extra = ev.at(-1)!;
      expect(extra.t - ev.at(-2)!.t).toBeLessThanOrEqual(1000);
      const piece = extra.type === 'lift' ? before.pieceAt(extra.square) : undefined;
      expect(piece && (piece.toLowerCase() === 'w') === (inj.side === 'white')).toBe(own);
    });
  }

  it('4.11 captured pieces (≥ 3) lifted in an order no legal sequence allows', () => {
    const { game, inj } = gameWith('4.11', { noise: 'realistic' });
    const m = moveAt(game, inj.ply);
    const before = positionBefore(game, inj.ply);
    expect(m.move.captured.length).toBeGreaterThanOrEqual(3);
    const order = lifts(injectedEvents(game, inj.t)).filter((s) => m.move.captured.includes(s));
    for (const l of legalSequences(before).filter((x) => moveKey(x) === moveKey(m.move))) {
      expect(order.join()).not.toBe(l.captured.join());
      expect(order.join()).not.toBe([...l.captured].reverse().join());
    }
    expect(m.irregular).toBe('4.11');
  });

  it('5.4.13 one pause of 2000–2500 ms between two removals', () => {
    const { game, inj } = gameWith('5.4.13', { noise: 'realistic' });
    const m = moveAt(game, inj.ply);
    const removals = injectedEvents(game, inj.t).filter(
      (e) => e.type === 'lift' && m.move.captured.includes(e.square),
    );
    expect(removals.map((e) => (e.type === 'lift' ? e.square : 0))).toEqual(m.move.captured);
    const gaps = removals.slice(1).map((e, i) => e.t - removals[i].t);
    expect(gaps.filter((g) => g >= 2000 && g <= 2500)).toHaveLength(1);
    expect(gaps.filter((g) => g > 1000)).toHaveLength(1);
  });

  it('5.4.10 the first captured piece lifted while the capturer stands on the first landing', () => {
    const { game, inj } = gameWith('5.4.10');
    const m = moveAt(game, inj.ply);
    const seq = injectedEvents(game, inj.t).flatMap((e) =>
      e.type === 'lift' ? [`L${e.square}`] : e.type === 'put' ? [`P${e.square}`] : [],
    );
    expect(seq.slice(0, 4)).toEqual([
      `L${m.move.from}`,
      `P${m.move.path[1]}`,
      `L${m.move.captured[0]}`,
      `L${m.move.path[1]}`,
    ]);
    expect(m.irregular).toBe('5.4.10');
  });

  it('5.4.3 a movable piece lifted and put back (300–800 ms), then another piece moved', () => {
    const { game, inj } = gameWith('5.4.3');
    const m = moveAt(game, inj.ply);
    const ev = injectedEvents(game, inj.t);
    const [l, p] = ev;
    expect(l.type).toBe('lift');
    expect(p).toMatchObject({ type: 'put', square: (l as { square: number }).square });
    expect(p.t - l.t).toBeGreaterThanOrEqual(300);
    expect(p.t - l.t).toBeLessThanOrEqual(800);
    const touched = (l as { square: number }).square;
    expect(touched).not.toBe(m.move.from);
    expect(legalMoves(positionBefore(game, inj.ply)).some((x) => x.from === touched)).toBe(true);
  });

  it('5.4.1 the side that just moved moves again (no press), then puts the piece back', () => {
    const { game, inj } = gameWith('5.4.1');
    const prev = moveAt(game, inj.ply - 1);
    expect(prev.side).toBe(inj.side);
    const start = handAt(game, inj.t);
    const next = game.events.findIndex((e, i) => i >= start && e.type === 'press');
    const ev = game.events.slice(start, next).filter((e) => e.type === 'lift' || e.type === 'put');
    const [l1, p1, l2, p2] = ev;
    expect((l2 as { square: number }).square).toBe((p1 as { square: number }).square);
    expect((p2 as { square: number }).square).toBe((l1 as { square: number }).square);
    const pos = parseFen(prev.fenAfter);
    const mine = pos.ok ? pos.value.pieceAt((l1 as { square: number }).square) : undefined;
    expect(mine && (mine.toLowerCase() === 'w') === (inj.side === 'white')).toBe(true);
    expect(game.events[next]).toMatchObject({
      type: 'press',
      side: inj.side === 'white' ? 'black' : 'white',
    });
  });

  it('5.4.4 a takeback (ply ≥ 2) restores the position before the move; the game replays that ply', () => {
    const { game, inj } = gameWith('5.4.4');
    expect(inj.ply).toBeGreaterThanOrEqual(2);
    const start = handAt(game, inj.t);
    const nextPress = game.events.findIndex((e, i) => i >= start && e.type === 'press');
    const restoredAt = game.events.slice(0, nextPress).findLastIndex((e) => e.type === 'put');
    // Somewhere after the takeback, before the replayed move is pressed, the board shows the old position.
    const fenBefore = positionBefore(game, inj.ply).toBoardString();
    let seen = false;
    for (let i = start; i <= restoredAt && !seen; i++)
      seen = boardAfter(game.events.slice(0, i + 1)) === fenBefore;
    expect(seen).toBe(true);
    expect(game.moves[inj.ply - 1].side).toBe(inj.side);
  });

  it('5.1 the whole game on a board turned 180° (piece-sensing boards only)', () => {
    const { game, inj } = gameWith('5.1');
    expect(inj).toMatchObject({ ply: 1, side: 'white' });
    expect(game.rotated).toBe(true);
    expect(game.events[0]).toMatchObject({
      type: 'snapshot',
      board: `${'w'.repeat(20)}${'.'.repeat(10)}${'b'.repeat(20)}`,
    });
    const first = game.moves[0].move;
    expect(lifts(game.events).slice(0, 1)).toEqual([51 - first.from]);
    expect(boardAfter(game.events)).toBe([...game.finalBoard].join(''));
    const occ = simulateGame({ seed: 1, inject: ['5.1'], injectProbability: 1, occupancyOnly: true });
    expect(occ.injected).toEqual([]);
  });

  it('5.3 a light-square fault', () => {
    const { game, inj } = gameWith('5.3');
    expect(game.events.find((e) => e.type === 'fault' && e.t >= inj.t)).toMatchObject({
      code: 'light-square',
    });
  });

  it('unknown-position: two pieces moved, nothing for over 4000 ms, then put back and a legal move', () => {
    const { game, inj } = gameWith('unknown-position');
    const ev = injectedEvents(game, inj.t).filter((e) => e.type === 'lift' || e.type === 'put');
    expect(ev.slice(0, 4).map((e) => e.type)).toEqual(['lift', 'put', 'lift', 'put']);
    expect(ev[4].t - ev[3].t).toBeGreaterThan(4000);
    expect(new Set(lifts(ev.slice(0, 4))).size).toBe(2);
    expect(puts(ev.slice(4, 8)).sort()).toEqual(lifts(ev.slice(0, 4)).sort());
    expect(moveAt(game, inj.ply).irregular).toBeUndefined();
  });

  it('an irregular result never looks, to the sensors, like an earlier position (that reads as a takeback)', () => {
    const altering: RuleId[] = [
      '5.4.2',
      '5.4.5',
      '5.4.6',
      '5.4.7',
      '5.4.8',
      '5.4.9',
      '5.4.11',
      '5.4.12',
      '5.4.14',
    ];
    let irregular = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const occupancyOnly = seed % 2 === 0;
      const sensed = (board: string) => (occupancyOnly ? board.replace(/[wbWB]/g, 'o') : board);
      const g = simulateGame({
        seed,
        occupancyOnly,
        inject: altering,
        injectProbability: 0.4,
        injectPerRule: 5,
      });
      const seen = new Set([sensed(Position.initial().toBoardString())]);
      for (const m of g.moves) {
        const board = parseFen(m.fenAfter);
        if (!board.ok) throw new Error(board.error.message);
        const key = sensed(board.value.toBoardString());
        if (m.irregular) {
          irregular++;
          expect(seen.has(key), `seed ${seed} ply ${m.ply}`).toBe(false);
        }
        seen.add(key);
      }
    }
    expect(irregular).toBeGreaterThan(60);
  });

  it('unknown-position: both pieces move within one settle window (< 250 ms between changes)', () => {
    const { game, inj } = gameWith('unknown-position', { noise: 'realistic' });
    const ev = injectedEvents(game, inj.t).filter((e) => e.type === 'lift' || e.type === 'put');
    for (const [a, b] of [
      [0, 4],
      [4, 8],
    ]) {
      const part = ev.slice(a, b);
      for (let i = 1; i < part.length; i++) expect(part[i].t - part[i - 1].t).toBeLessThan(250);
    }
  });

  it('scripted games get only the injections that leave the game playable', () => {
    const base = simulateGame({ seed: 5, maxPlies: 40 });
    const g = simulateGame({
      seed: 5,
      moves: base.pdn,
      inject: ['5.4.2', '5.4.3', '5.4.4'],
      injectProbability: 1,
    });
    expect(g.injected.map((i) => i.rule)).not.toContain('5.4.2');
    expect(g.injected.map((i) => i.rule)).toEqual(expect.arrayContaining(['5.4.3', '5.4.4']));
    expect(g.moves.map((m) => m.pdn)).toEqual(base.moves.map((m) => m.pdn));
  });

  it('every rule, often, on both variants and board kinds: physically possible events in time order', () => {
    const seen = new Set<string>();
    for (let seed = 1; seed <= 40; seed++) {
      const g = simulateGame({
        seed,
        variant: seed % 2 ? 'international' : 'brazilian',
        occupancyOnly: seed % 3 === 0,
        noise: seed % 4 === 0 ? 'harsh' : 'realistic',
        inject: INJECTABLE,
        injectProbability: 0.5,
        injectPerRule: 2,
        maxPlies: 120,
      });
      for (const i of g.injected) seen.add(i.rule);
      const times = g.events.map((e) => e.t);
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      const end = boardAfter(g.events);
      expect(g.occupancyOnly ? end.replace(/o/g, 'x') : end).toBe(
        g.occupancyOnly ? g.finalBoard.replace(/[wbWB]/g, 'x') : g.finalBoard,
      );
      expect(g.injected.every((i) => i.ply >= 1 && i.ply <= g.moves.length + 1)).toBe(true);
    }
    expect([...seen].sort()).toEqual([...INJECTABLE].sort());
  });

  it('the result gesture: kings on the centre squares after the last move', () => {
    const g = simulateGame({ seed: 2, resultGesture: true, noise: 'none' });
    expect(g.gesture?.result).toBe(g.result);
    const board = boardAfter(g.events);
    const kings = g.result === '2-0' ? 'WW' : g.result === '0-2' ? 'BB' : 'WB';
    expect(board[22] + board[27]).toBe(kings);
    expect(Position.initial().squareCount).toBe(50);
  });
});
