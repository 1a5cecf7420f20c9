// Capture sequences that are *not* necessarily the maximum: what a player who misses the compulsory
// maximum (5.4.8) can physically do. The engine only returns legal (maximal) sequences, so this walks
// the board itself, with the same rules of movement (4.3, 4.7, 4.8).
import { colorOf, geometry, isKing, type Move, type Position } from '../src/engine/index.ts';

/** Every capture sequence of the piece on `from` that ends where it can capture no further. */
export function completeCaptures(pos: Position, from: number): Move[] {
  const piece = pos.pieceAt(from);
  if (!piece) return [];
  const g = geometry(pos.variant);
  const own = colorOf(piece);
  const king = isKing(piece);
  const empty = (s: number) => s === from || pos.pieceAt(s) === undefined;
  const out: Move[] = [];
  const taken = new Set<number>();
  const path = [from];
  const captured: number[] = [];
  const walk = (sq: number) => {
    let extended = false;
    for (let d = 0; d < 4; d++) {
      const ray = g.rays[sq][d];
      let i = 0;
      if (king) while (i < ray.length && empty(ray[i])) i++;
      const victim = ray[i];
      const vp = victim === undefined ? undefined : pos.pieceAt(victim);
      if (victim === undefined || !vp || taken.has(victim) || colorOf(vp) === own || victim === from)
        continue;
      for (let j = i + 1; j < ray.length && empty(ray[j]); j++) {
        extended = true;
        taken.add(victim);
        captured.push(victim);
        path.push(ray[j]);
        walk(ray[j]);
        path.pop();
        captured.pop();
        taken.delete(victim);
        if (!king) break;
      }
    }
    if (!extended && captured.length > 0) {
      const promotes = !king && (own === 'white' ? g.whitePromotion(sq) : g.blackPromotion(sq));
      out.push({ from, to: sq, path: [...path], captured: [...captured], promotes, piece });
    }
  };
  walk(from);
  return out;
}
