import type { Variant } from './variant.ts';

import type { Side } from '../../firmware-protocol/side.ts';

export type { Side } from '../../firmware-protocol/side.ts';
/** w/b men, W/B kings — the same letters as the sensor-event contract. */
export type Piece = 'w' | 'b' | 'W' | 'B';

export const opposite = (c: Side): Side => (c === 'white' ? 'black' : 'white');
export const colorOf = (p: Piece): Side => (p === 'w' || p === 'W' ? 'white' : 'black');
export const isKing = (p: Piece): boolean => p === 'W' || p === 'B';
export const kingOf = (c: Side): Piece => (c === 'white' ? 'W' : 'B');
export const manOf = (c: Side): Piece => (c === 'white' ? 'w' : 'b');

export interface Move {
  readonly from: number;
  readonly to: number;
  /** from, every landing square in order, to (for a quiet move: [from, to]). */
  readonly path: readonly number[];
  /** Captured squares in capture order (rule 4.11 checks removals against this). */
  readonly captured: readonly number[];
  /** A man whose move ends on the far row (4.15: passing it during a capture does not count). */
  readonly promotes: boolean;
  /** The moving piece as it stood on `from`. */
  readonly piece: Piece;
}

export const isCapture = (m: Move): boolean => m.captured.length > 0;

/** Canonical identity (engine-vectors.md): same from, same to, same *set* of captured pieces. */
export function moveKey(m: Move): string {
  const set = m.captured.length > 1 ? [...m.captured].sort((a, b) => a - b) : m.captured;
  return `${m.from}-${m.to}:${set.join(',')}`;
}

export interface VariantRef {
  readonly variant: Variant;
}
