// Property tests (fast-check) on random legal games and random positions.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalMoves, parseFen, type Piece, Position, writeFen } from '../../../src/engine/index.ts';
import { gameArb, positionArb } from './fixtures/arbitraries.ts';

describe('FEN write → read round trip', () => {
  for (const variant of ['international', 'brazilian'] as const) {
    it(`${variant}: random positions and positions of random games`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            positionArb(variant),
            gameArb(variant).map((ps) => ps[ps.length - 1]),
          ),
          (pos) => {
            const back = parseFen(writeFen(pos), { variant });
            expect(back.ok).toBe(true);
            if (back.ok) {
              expect(back.value.equals(pos)).toBe(true);
              expect(back.value.hash).toBe(pos.hash);
            }
          },
        ),
        { numRuns: 200 },
      );
    });
  }
});

describe('hash equal ⇔ positions equal', () => {
  it('on the positions of random games (both variants)', () => {
    fc.assert(
      fc.property(
        fc.oneof(gameArb('international'), gameArb('brazilian')),
        gameArb('international'),
        (a, b) => {
          const all = [...a, ...b];
          const byHash = new Map<number, Position>();
          const byContent = new Map<string, number>();
          for (const p of all) {
            // A move's position takes its parent's hash, updated: the same as computed from every square.
            expect(Position.fromBoard(p.variant, p.turn, p.board.slice()).hash).toBe(p.hash);
            const content = `${p.variant}|${p.turn}|${p.toBoardString()}`;
            const seen = byHash.get(p.hash);
            if (seen) expect(seen.equals(p)).toBe(true);
            else byHash.set(p.hash, p);
            const h = byContent.get(content);
            if (h !== undefined) expect(h).toBe(p.hash);
            else byContent.set(content, p.hash);
          }
          for (let i = 1; i < all.length; i++) {
            expect(all[i].equals(all[i - 1])).toBe(all[i].hash === all[i - 1].hash);
          }
          // withTurn changes the hash and equality, and back again restores both.
          const last = all[all.length - 1];
          const flipped = last.withTurn(last.turn === 'white' ? 'black' : 'white');
          expect(flipped.hash).not.toBe(last.hash);
          expect(flipped.equals(last)).toBe(false);
          expect(flipped.withTurn(last.turn).equals(last)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});

// An independent, deliberately naive capture search on (row, col) coordinates, to check the engine
// against: it never uses the engine's geometry or generator.
function naiveCaptures(pos: Position): Array<{ from: number; to: number; set: string }> {
  const width = pos.variant === 'international' ? 10 : 8;
  const per = width / 2;
  const sq = (r: number, c: number) =>
    r < 0 || c < 0 || r >= width || c >= width || (r + c) % 2 === 0 ? 0 : r * per + Math.floor(c / 2) + 1;
  const grid = new Map<number, Piece>(pos.pieces());
  const white = pos.turn === 'white';
  const enemy = (p: Piece | undefined) => p !== undefined && (p === 'w' || p === 'W') !== white;
  let best = 1;
  let out: Array<{ from: number; to: number; set: string }> = [];
  const walk = (r: number, c: number, king: boolean, from: number, taken: number[]) => {
    let more = false;
    for (const [dr, dc] of [
      [-1, -1],
      [-1, 1],
      [1, -1],
      [1, 1],
    ]) {
      let k = 1;
      if (king) while (sq(r + k * dr, c + k * dc) && !grid.has(sq(r + k * dr, c + k * dc))) k++;
      const v = sq(r + k * dr, c + k * dc);
      if (!v || !enemy(grid.get(v)) || taken.includes(v)) continue;
      for (let j = k + 1; ; j++) {
        const land = sq(r + j * dr, c + j * dc);
        if (!land || grid.has(land)) break;
        more = true;
        walk(r + j * dr, c + j * dc, king, from, [...taken, v]);
        if (!king) break;
      }
    }
    if (!more && taken.length >= best) {
      if (taken.length > best) {
        best = taken.length;
        out = [];
      }
      out.push({ from, to: sq(r, c), set: [...taken].sort((a, b) => a - b).join() });
    }
  };
  for (const [s, p] of pos.pieces(pos.turn)) {
    const r = Math.floor((s - 1) / per);
    const c = 2 * ((s - 1) % per) + (r % 2 === 0 ? 1 : 0);
    grid.delete(s); // the mover's square is empty during its own capture
    walk(r, c, p === 'W' || p === 'B', s, []);
    grid.set(s, p);
  }
  const unique = new Map(out.map((m) => [`${m.from}-${m.to}:${m.set}`, m]));
  return [...unique.values()];
}

describe('4.13 no legal move list contains a capture of fewer than the maximum', () => {
  for (const variant of ['international', 'brazilian'] as const) {
    it(`${variant}: the engine's captures are exactly the naive maximum captures`, () => {
      fc.assert(
        fc.property(positionArb(variant), (pos) => {
          const naive = naiveCaptures(pos);
          const moves = legalMoves(pos);
          if (naive.length === 0) {
            expect(moves.every((m) => m.captured.length === 0)).toBe(true);
            return;
          }
          const max = Math.max(...moves.map((m) => m.captured.length));
          expect(moves.every((m) => m.captured.length === max)).toBe(true);
          const key = (m: { from: number; to: number; set: string }) => `${m.from}-${m.to}:${m.set}`;
          expect(
            moves
              .map((m) => key({ from: m.from, to: m.to, set: [...m.captured].sort((a, b) => a - b).join() }))
              .sort(),
          ).toEqual(naive.map(key).sort());
        }),
        { numRuns: 300 },
      );
    });
  }
});
