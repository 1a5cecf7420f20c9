import { describe, expect, it } from 'vitest';
import { legalSequences, Position, parseFen, play, writeFen } from '../../src/engine/index.ts';
import { simulateGame } from '../../simulator/game.ts';
import { boardAfter, splitAtPresses } from './fixtures/helpers.ts';

describe('simulateGame: self-played ground truth', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    expect(simulateGame({ seed: 7 })).toEqual(simulateGame({ seed: 7 }));
    expect(simulateGame({ seed: 7 }).pdn).not.toBe(simulateGame({ seed: 8 }).pdn);
  });

  for (const variant of ['international', 'brazilian'] as const) {
    for (const noise of ['none', 'realistic', 'harsh'] as const) {
      it(`${variant}/${noise}: legal moves, physical events end on the final position, one press per move`, () => {
        for (let seed = 1; seed <= 5; seed++) {
          const g = simulateGame({ seed, variant, noise });
          let pos = Position.initial(variant);
          for (const m of g.moves) {
            const seq = legalSequences(pos).find(
              (s) =>
                s.from === m.move.from &&
                s.to === m.move.to &&
                s.path.join() === m.move.path.join() &&
                s.captured.join() === m.move.captured.join(),
            );
            expect(seq, `ply ${m.ply} ${m.pdn}`).toBeDefined();
            pos = play(pos, m.move);
            expect(m.fenAfter).toBe(writeFen(pos));
          }
          const board = boardAfter(g.events);
          expect(board).toBe(pos.toBoardString());
          const presses = g.events.filter((e) => e.type === 'press');
          expect(presses.map((e) => (e.type === 'press' ? e.side : ''))).toEqual(g.moves.map((m) => m.side));
          const times = g.events.map((e) => e.t);
          expect([...times].sort((a, b) => a - b)).toEqual(times);
          expect(g.pdn).toContain(`[Result "${g.result}"]`);
          expect(g.pdn).toContain(`1. ${g.moves[0].pdn}`);
        }
      });
    }
  }

  it('4.11: captured pieces come off in capture order or its reverse, after the piece lands', () => {
    let captures = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const g = simulateGame({ seed, noise: 'harsh' });
      const perMove = splitAtPresses(g.events);
      g.moves.forEach((m, k) => {
        if (m.move.captured.length === 0) return;
        captures++;
        const slice = perMove[k];
        const captured = new Set(m.move.captured);
        const removals = slice.flatMap((e) =>
          e.type === 'lift' && captured.has(e.square) ? [e.square] : [],
        );
        const order = [...m.move.captured];
        expect([order.join(), [...order].reverse().join()]).toContain(removals.join());
        const landed = slice.findIndex((e) => e.type === 'put' && e.square === m.move.to);
        const firstRemoval = slice.findIndex((e) => e.type === 'lift' && captured.has(e.square));
        expect(firstRemoval).toBeGreaterThan(landed);
        expect(landed).toBeGreaterThanOrEqual(0);
      });
    }
    expect(captures).toBeGreaterThan(20);
  });

  it('plays a scripted game given as move texts or PDN, and rejects an illegal move', () => {
    const texts = ['32-28', '19-23', '28x19', '14x23', '33-28'];
    const g = simulateGame({ seed: 1, moves: texts });
    expect(g.moves.map((m) => m.pdn)).toEqual(texts);
    expect(g.result).toBe('*');
    const fromPdn = simulateGame({ seed: 1, moves: g.pdn });
    expect(fromPdn.moves.map((m) => m.pdn)).toEqual(texts);
    expect(() => simulateGame({ seed: 1, moves: ['32-27', '32-28'] })).toThrow(/32-28/);
  });

  it('occupancy-only boards: puts carry no piece', () => {
    const g = simulateGame({ seed: 3, occupancyOnly: true });
    const puts = g.events.filter((e) => e.type === 'put');
    expect(puts.length).toBeGreaterThan(0);
    expect(puts.every((e) => e.type === 'put' && e.piece === undefined)).toBe(true);
    expect(g.events[0]).toMatchObject({
      type: 'snapshot',
      board: expect.stringMatching(/^o{20}\.{10}o{20}$/),
    });
  });

  it('human timing: thinking takes seconds, a game ends by a rule', () => {
    const g = simulateGame({ seed: 11, startT: 1000 });
    expect(g.events[0].t).toBe(1000);
    const gaps = g.moves.slice(1).map((m, i) => m.t - g.moves[i].t);
    const median = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)];
    expect(median).toBeGreaterThan(1500);
    expect(median).toBeLessThan(6000);
    expect(['2-0', '0-2', '1-1']).toContain(g.result);
    expect(parseFen(g.moves.at(-1)!.fenAfter).ok).toBe(true);
  });
});

describe('harmless noise stays inside the bounds of docs/irregularities.md', () => {
  for (const noise of ['realistic', 'harsh'] as const) {
    it(`${noise}: carry ≤ 2000 ms, removals 150–1000 ms after landing and ≤ 1000 ms apart, press 100–3000 ms after the last change`, () => {
      let checkedCaptures = 0;
      for (let seed = 1; seed <= 8; seed++) {
        const g = simulateGame({ seed, noise });
        const perMove = splitAtPresses(g.events);
        g.moves.forEach((m, k) => {
          const ev = perMove[k].filter((e) => e.type === 'lift' || e.type === 'put');
          const lifted = ev.find((e) => e.type === 'lift' && e.square === m.move.from)!;
          const landed = ev.find((e) => e.type === 'put' && e.square === m.move.to)!;
          expect(landed.t - lifted.t, `carry at ply ${m.ply}`).toBeLessThanOrEqual(2000);
          const press = perMove[k].at(-1)!;
          expect(press.type).toBe('press');
          const gap = press.t - ev.at(-1)!.t;
          expect(gap).toBeGreaterThanOrEqual(100);
          expect(gap).toBeLessThanOrEqual(3000);
          if (m.move.captured.length === 0) return;
          checkedCaptures++;
          const removals = ev.filter((e) => e.type === 'lift' && m.move.captured.includes(e.square));
          const first = removals[0].t - landed.t;
          expect(first).toBeGreaterThanOrEqual(150);
          expect(first).toBeLessThanOrEqual(1000);
          for (let i = 1; i < removals.length; i++)
            expect(removals[i].t - removals[i - 1].t).toBeLessThanOrEqual(1000);
        });
      }
      expect(checkedCaptures).toBeGreaterThan(30);
    });
  }
});
