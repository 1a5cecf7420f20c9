// engine-vectors.md: published perft figures (rhalbersma/dctl, Aart Bik), canonical move counting.
import { describe, expect, it } from 'vitest';
import { parseFen, Position } from '../../src/engine/index.ts';
import { perft, perftDivide } from '../../src/engine/perft.ts';

describe('perft, International 10×10, initial position W:W31-50:B1-20', () => {
  const initial = Position.initial('international');
  const figures = [9, 81, 658, 4265, 27117, 167140, 1049442];
  figures.forEach((nodes, i) => {
    it(`depth ${i + 1} = ${nodes.toLocaleString('en')}`, () => {
      expect(perft(initial, i + 1)).toBe(nodes);
    });
  });

  it('the FEN W:W31-50:B1-20 is the initial position', () => {
    const r = parseFen('W:W31-50:B1-20');
    expect(r.ok && r.value.equals(initial)).toBe(true);
  });

  it('divide sums to the total and names the first moves', () => {
    const parts = perftDivide(initial, 3);
    expect(parts.map((p) => p.move)).toContain('32-28');
    expect(parts).toHaveLength(9);
    expect(parts.reduce((a, p) => a + p.nodes, 0)).toBe(658);
  });
});

describe('perft, Brazilian 8×8, initial position W:W21-32:B1-12', () => {
  const initial = Position.initial('brazilian');
  [7, 49, 302, 1469].forEach((nodes, i) => {
    it(`depth ${i + 1} = ${nodes.toLocaleString('en')}`, () => {
      expect(perft(initial, i + 1)).toBe(nodes);
    });
  });

  it('the FEN W:W21-32:B1-12 is the initial position', () => {
    const r = parseFen('W:W21-32:B1-12', { variant: 'brazilian' });
    expect(r.ok && r.value.equals(initial)).toBe(true);
  });
});
