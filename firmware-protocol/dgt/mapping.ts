// Resolves a DGT board's configuration: which field map numbers which scan, and the piece codes.
import {
  type BoardSize,
  darkScanFieldMap,
  fullScanFieldMap,
  invertFieldMap,
  type SquareChar,
  squareCount,
} from '../board-string.ts';
import type { PieceCode } from '../events.ts';
import { Orientation } from '../orientation.ts';
import type { PieceCodes, ProtocolOptions } from '../types.ts';
import { DEFAULT_PIECE_CODES, DGT_SCAN_MS } from './constants.ts';

export interface DgtSetup {
  size: BoardSize;
  n: number;
  fields50: readonly number[];
  /** Only when configured: what a 50W dump's fields are is not public, and not the 50B order. */
  fields50W: readonly number[] | undefined;
  /** The all-squares scan: 100 fields on 10×10, 64 on 8×8. */
  fieldsFull: readonly number[];
  senses: 'pieces' | 'occupancy';
  /** piece byte → square char (undefined for an unknown byte; every non-zero byte is `o` on occupancy boards). */
  charOf: (code: number) => SquareChar | undefined;
  codeOf: Readonly<Record<PieceCode, number>>;
  /** The byte an occupancy board sends for any piece. */
  occupied: number;
  clockWhite: 'left' | 'right';
  scan: '50' | '100';
  /** The scan period the hello tells the host (0: the board reports changes as they happen). */
  scanMs: number;
  orientation: Orientation;
}

export function dgtSetup(options: ProtocolOptions): DgtSetup {
  const size = options.size ?? 10;
  const map = options.fieldMap ?? {};
  const codes: PieceCodes = options.pieceCodes ?? DEFAULT_PIECE_CODES;
  const senses = options.senses ?? 'pieces';
  // Men last: a board that reads kings as men (same code) shows men.
  const byCode = new Map<number, SquareChar>([
    [codes.W, 'W'],
    [codes.B, 'B'],
    [codes.w, 'w'],
    [codes.b, 'b'],
    [0, '.'],
  ]);
  const fields50 = map.fields50 ?? darkScanFieldMap(10);
  return {
    size,
    n: squareCount(size),
    fields50,
    fields50W: map.fields50W,
    fieldsFull: (size === 10 ? map.fields100 : map.fields64) ?? fullScanFieldMap(size),
    senses,
    charOf: senses === 'occupancy' ? (code) => (code === 0 ? '.' : 'o') : (code) => byCode.get(code),
    codeOf: codes,
    occupied: options.occupiedCode ?? codes.w,
    clockWhite: options.clockWhite ?? 'left',
    scan: size === 8 ? '100' : (options.scan ?? '50'),
    scanMs: options.scanMs ?? DGT_SCAN_MS,
    orientation: new Orientation(options.orientation ?? 'auto', size),
  };
}

/** square → field index for each scan, for the board side. */
export const inverseMaps = (s: DgtSetup) => ({
  dark: invertFieldMap(s.fields50, s.n),
  full: invertFieldMap(s.fieldsFull, s.n),
});
