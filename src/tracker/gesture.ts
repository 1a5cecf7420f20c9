// The result gesture (not a move): kings put on the two centre squares after the last move.
import { type FinalResult, geometry, type Variant } from '../engine/index.ts';
import { isKingCode, isWhiteCode } from './sensed-codes.ts';

export type GestureResult = FinalResult;

/** The centre squares of the result gesture: the dark squares of the four middle fields. */
export function centreSquares(variant: Variant): [number, number] {
  const g = geometry(variant);
  const mid = [g.width / 2 - 1, g.width / 2];
  const found: number[] = [];
  for (let s = 1; s <= g.squares; s++) {
    if (mid.includes(g.rowOf[s]) && mid.includes(g.colOf[s])) found.push(s);
  }
  return [found[0], found[1]];
}

/**
 * The result the board shows with kings on both centre squares, both put there since the last
 * move (`putOn`): a king already standing on the centre, or one passing over it, is no gesture.
 */
export function gestureShown(
  phys: Int8Array,
  centre: readonly [number, number],
  putOn: (square: number) => boolean,
): GestureResult | undefined {
  const [a, b] = centre;
  const pa = phys[a];
  const pb = phys[b];
  if (!isKingCode(pa) || !isKingCode(pb) || !putOn(a) || !putOn(b)) return undefined;
  const whites = (isWhiteCode(pa) ? 1 : 0) + (isWhiteCode(pb) ? 1 : 0);
  return whites === 2 ? '2-0' : whites === 1 ? '1-1' : '0-2';
}
