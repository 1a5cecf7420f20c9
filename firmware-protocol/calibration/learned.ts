// What calibration learns about a physical board, whatever its protocol: the profile (profile.ts)
// is this with the board's serial number and protocol, and each protocol's descriptor lays it over
// a board description.
import type { BoardSize } from '../board-string.ts';
import type { PieceCodes } from '../types.ts';

/** How a board tells kings from men. */
export type KingSensing =
  /** A crowned piece with a code of its own. */
  | 'crown'
  /** Two stacked men, which the board reads as a code of their own. */
  | 'stacked'
  /** The board reads a king as a man. */
  | 'as-man';

export interface LearnedBoard {
  size: BoardSize;
  /** Fields the board scans: 50 / 32 (dark squares only) or 100 / 64 (every square). */
  fields: 50 | 32 | 100 | 64;
  /** Field (0-based, the board's own numbering) → FMJD square; 0 for a light square. */
  fieldMap: number[];
  /** The fields that are light squares (not playing squares): empty on dark-square scans. */
  lightFields: number[];
  senses: 'pieces' | 'occupancy';
  /** Raw codes of each piece (pieces boards); kings equal men when `kings` is `as-man`. */
  pieces?: PieceCodes;
  /** Raw code of any piece (occupancy boards). */
  occupied?: number;
  kings?: KingSensing;
}
