// HID snapshot boards: every input report is the whole board. The layout says where the cells are.
import { darkScanFieldMap, fullScanFieldMap, type SquareChar } from '../board-string.ts';
import type { HidLayout } from '../types.ts';

/**
 * damlink's reference layout (documented in PROTOCOL.md): report id 0x01, then 50 cells of 4 bits,
 * lower-numbered cell in the low nibble; 0 empty, 1 w, 2 b, 3 W, 4 B, 5 occupied (colour unknown).
 * Output reports: `02 01` real-time mode on, `02 02` send one snapshot.
 */
export const DEFAULT_HID_LAYOUT: HidLayout = {
  reportId: 0x01,
  offset: 1,
  cells: 50,
  bitsPerCell: 4,
  nibbleOrder: 'low-first',
  codes: { empty: 0, w: 1, b: 2, W: 3, B: 4, occupied: 5 },
  realtimeCommand: [0x02, 0x01],
  snapshotCommand: [0x02, 0x02],
};

export interface ResolvedLayout {
  layout: HidLayout;
  /** cell → physical square (0: none). */
  cellMap: readonly number[];
  /** Report length the layout needs. */
  length: number;
  charOf: Map<number, SquareChar>;
  codeOf: Record<SquareChar, number | undefined>;
}

export function resolveLayout(layout: HidLayout = DEFAULT_HID_LAYOUT): ResolvedLayout {
  const cellMap =
    layout.cellMap ??
    (layout.cells === 100
      ? fullScanFieldMap(10)
      : layout.cells === 64
        ? fullScanFieldMap(8)
        : darkScanFieldMap(layout.cells === 50 ? 10 : 8));
  const c = layout.codes;
  const charOf = new Map<number, SquareChar>([
    [c.empty, '.'],
    [c.w, 'w'],
    [c.b, 'b'],
    [c.W, 'W'],
    [c.B, 'B'],
  ]);
  if (c.occupied !== undefined) charOf.set(c.occupied, 'o');
  return {
    layout,
    cellMap,
    length: layout.offset + (layout.bitsPerCell === 4 ? Math.ceil(layout.cells / 2) : layout.cells),
    charOf,
    codeOf: { '.': c.empty, w: c.w, b: c.b, W: c.W, B: c.B, o: c.occupied },
  };
}

/** Value of cell i in a report. */
export function readCell(r: ResolvedLayout, report: Uint8Array, i: number): number {
  const { offset, bitsPerCell, nibbleOrder } = r.layout;
  if (bitsPerCell === 8) return report[offset + i];
  const byte = report[offset + (i >> 1)];
  const low = (i & 1) === 0 ? nibbleOrder === 'low-first' : nibbleOrder === 'high-first';
  return low ? byte & 0x0f : byte >> 4;
}

export function writeCell(r: ResolvedLayout, report: Uint8Array, i: number, value: number): void {
  const { offset, bitsPerCell, nibbleOrder } = r.layout;
  if (bitsPerCell === 8) {
    report[offset + i] = value & 0xff;
    return;
  }
  const at = offset + (i >> 1);
  const low = (i & 1) === 0 ? nibbleOrder === 'low-first' : nibbleOrder === 'high-first';
  report[at] = low ? (report[at] & 0xf0) | (value & 0x0f) : (report[at] & 0x0f) | ((value & 0x0f) << 4);
}
