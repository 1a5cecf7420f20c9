// Move text (broadcast.md "PDN as lidraughts reads and writes it"): 32-28, 19x28, and the PDN 3.0
// path exactly when two legal moves share from and to.
import { describe, expect, it } from 'vitest';
import {
  legalMoves,
  legalSequences,
  moveNotation,
  parseFen,
  parseMoveText,
  Position,
  type Position as Pos,
  resolveMove,
} from '../../../src/engine/index.ts';

function position(fen: string): Pos {
  const r = parseFen(fen);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

// A white king on 21 reaches 42 over two different sets of black men (via 8 or via 3).
const TWO_WAYS = 'W:WK21:B10,12,13,14,18,23,29,32,38';

describe('moveNotation', () => {
  it('writes quiet moves with "-" and captures with "x"', () => {
    const pos = Position.initial();
    const m = legalMoves(pos).find((x) => x.from === 32 && x.to === 28)!;
    expect(moveNotation(pos, m)).toBe('32-28');
    const cap = position('W:W28,32:B23');
    expect(moveNotation(cap, legalMoves(cap)[0])).toBe('28x19');
  });

  it('writes only from and to when no other legal move shares them', () => {
    const pos = position('W:W15:B8,19,20');
    expect(legalMoves(pos).map((m) => moveNotation(pos, m))).toEqual(['15x2']);
  });

  it('writes the PDN 3.0 path (turning squares, or the square behind a piece taken straight on) when from and to are shared', () => {
    const pos = position(TWO_WAYS);
    const to42 = legalMoves(pos).filter((m) => m.from === 21 && m.to === 42);
    expect(to42).toHaveLength(2);
    const texts = to42.map((m) => moveNotation(pos, m)).sort();
    // 21x8 turns at 8; 24 is a turn; 33 is straight on behind the man on 29, then 42.
    expect(texts).toEqual(['21x3x20x33x42', '21x8x24x33x42']);
  });
  it('reproduces the PDN 3.0 example of broadcast.md: 47x38x24x13x36', () => {
    // 38 is straight on behind 42 (no turn there); 24 and 13 are turns.
    const pos = position('W:WK47:B19,23,27,33,42');
    const texts = legalMoves(pos)
      .map((m) => moveNotation(pos, m))
      .sort();
    expect(texts).toEqual(['47x38x24x13x31', '47x38x24x13x36', '47x38x29x18x31', '47x38x29x18x36']);
    const r = resolveMove(pos, '47x38x24x13x36');
    expect(r.ok && [...r.value.captured].sort((a, b) => a - b)).toEqual([19, 27, 33, 42]);
  });
});

describe('parseMoveText', () => {
  it('reads squares and the separator kind', () => {
    expect(parseMoveText('32-28')).toEqual({ ok: true, value: { squares: [32, 28], capture: false } });
    expect(parseMoveText('19x28x37')).toEqual({ ok: true, value: { squares: [19, 28, 37], capture: true } });
    expect(parseMoveText('19:28')).toEqual({ ok: true, value: { squares: [19, 28], capture: undefined } });
  });
  it('rejects what is not a move, with a typed error', () => {
    for (const t of ['', '32', '32-', 'x28', '32-28x19', 'e4', '32-28-23']) {
      const r = parseMoveText(t);
      expect(r.ok, t).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('bad-move-text');
    }
  });
});

describe('resolveMove', () => {
  it('finds the legal move named by its text', () => {
    const r = resolveMove(Position.initial(), '32-28');
    expect(r.ok && [r.value.from, r.value.to]).toEqual([32, 28]);
  });

  it('accepts the full landing path and ":" as separator', () => {
    const pos = position('W:W15:B9,10');
    for (const t of ['15x13', '15x4x13', '15:13', '15:4:13']) {
      const r = resolveMove(pos, t);
      expect(r.ok && r.value.path, t).toEqual([15, 4, 13]);
    }
  });

  it('illegal moves are typed errors (capture is compulsory, wrong separator, no such move)', () => {
    const pos = position('W:W28,32:B23');
    for (const t of ['32-27', '28-22', '23x32', '32x27']) {
      const r = resolveMove(pos, t);
      expect(r.ok, t).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('illegal-move');
    }
  });

  it('a capture written with "-" is read when no quiet move goes there', () => {
    const r = resolveMove(position('W:W28,32:B23'), '28-19');
    expect(r.ok && r.value.captured).toEqual([23]);
    const amb = resolveMove(position(TWO_WAYS), '21-42');
    expect(!amb.ok && amb.error.code).toBe('ambiguous-move');
    expect(!amb.ok && amb.error.candidates).toEqual(
      expect.arrayContaining(['21x8x24x33x42', '21x3x20x33x42']),
    );
  });

  it("algebraic squares on 8×8 boards (a1 is White's left corner), refused on 10×10", () => {
    const r = resolveMove(Position.initial('brazilian'), 'c3-d4');
    expect(r.ok && [r.value.from, r.value.to]).toEqual([22, 18]);
    expect(resolveMove(Position.initial('brazilian'), 'c3d4').ok).toBe(false);
    const ten = resolveMove(Position.initial(), 'c3-d4');
    expect(!ten.ok && ten.error.code).toBe('bad-move-text');
  });

  it('from and to alone are ambiguous when two captured sets share them; the path decides', () => {
    const pos = position(TWO_WAYS);
    const amb = resolveMove(pos, '21x42');
    expect(amb.ok).toBe(false);
    if (!amb.ok) {
      expect(amb.error.code).toBe('ambiguous-move');
      expect(amb.error.message).toContain('21x8x24x33x42');
    }
    const a = resolveMove(pos, '21x8x24x33x42');
    const b = resolveMove(pos, '21x3x20x33x42');
    expect(a.ok && [...a.value.captured].sort((x, y) => x - y)).toEqual([12, 13, 29, 38]);
    expect(b.ok && [...b.value.captured].sort((x, y) => x - y)).toEqual([12, 14, 29, 38]);
    // One intermediate square that only one route passes through is enough.
    const c = resolveMove(pos, '21x3x42');
    expect(c.ok && [...c.value.captured].sort((x, y) => x - y)).toEqual([12, 14, 29, 38]);
  });

  it('every legal sequence resolves, by its written text and by its landing path, to its own move', () => {
    const pos = position(TWO_WAYS);
    for (const seq of legalSequences(pos)) {
      const key = [...seq.captured].sort((x, y) => x - y).join();
      for (const text of [moveNotation(pos, seq), seq.path.join('x')]) {
        const r = resolveMove(pos, text);
        expect(r.ok && [...r.value.captured].sort((x, y) => x - y).join(), text).toBe(key);
      }
    }
  });
});
