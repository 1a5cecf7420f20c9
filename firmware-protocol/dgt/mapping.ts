// Resolves a DGT board's configuration: which field map numbers which scan, and the piece codes.
import {
  type BoardSize,
  darkScanFieldMap,
  fullScanFieldMap,
  invertFieldMap,
  type SquareChar,
  squareCount,
} from '../board.ts';
import type { PieceCode } from '../events.ts';
import { Orientation } from '../orientation.ts';
import type { PieceCodes, ProtocolOptions } from '../types.ts';
import { DEFAULT_PIECE_CODES } from './constants.ts';

export interface DgtSetup {
  size: BoardSize;
  n: number;
  fields50: readonly number[];
  fields50W: readonly number[];
  /** The all-squares scan: 100 fields on 10×10, 64 on 8×8. */
  fieldsFull: readonly number[];
  /** piece byte → square char (`o` for an unknown non-zero byte). */
  charOf: (code: number) => SquareChar | undefined;
  codeOf: Readonly<Record<PieceCode, number>>;
  clockWhite: 'left' | 'right';
  scan: '50' | '100';
  orientation: Orientation;
}

export function dgtSetup(options: ProtocolOptions): DgtSetup {
  const size = options.size ?? 10;
  const map = options.fieldMap ?? {};
  const codes: PieceCodes = options.pieceCodes ?? DEFAULT_PIECE_CODES;
  const byCode = new Map<number, SquareChar>([
    [codes.w, 'w'],
    [codes.b, 'b'],
    [codes.W, 'W'],
    [codes.B, 'B'],
    [0, '.'],
  ]);
  const fields50 = map.fields50 ?? darkScanFieldMap(10);
  return {
    size,
    n: squareCount(size),
    fields50,
    fields50W: map.fields50W ?? fields50,
    fieldsFull: (size === 10 ? map.fields100 : map.fields64) ?? fullScanFieldMap(size),
    charOf: (code) => byCode.get(code),
    codeOf: codes,
    clockWhite: options.clockWhite ?? 'left',
    scan: size === 8 ? '100' : (options.scan ?? '50'),
    orientation: new Orientation(options.orientation ?? 'auto', size),
  };
}

/** square → field index for each scan, for the board side. */
export const inverseMaps = (s: DgtSetup) => ({
  dark: invertFieldMap(s.fields50, s.n),
  full: invertFieldMap(s.fieldsFull, s.n),
});
