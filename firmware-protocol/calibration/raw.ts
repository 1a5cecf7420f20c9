// What a board says before anyone knows its field order or piece codes: pictures and changes of
// *fields* holding *raw codes* (0 = empty). The calibration learns the meaning from these.
import { LineDecoder } from '../line/decoder.ts';
import { MSG } from '../dgt/constants.ts';
import { DgtFramer } from '../dgt/framer.ts';
import { readCell, resolveLayout } from '../hid/layout.ts';
import type { ProtocolOptions } from '../types.ts';

export type RawReading =
  /** The whole board: one raw code per field, in the board's own field order. */
  | { t: number; kind: 'picture'; codes: readonly number[] }
  /** One field changed: its raw code now (0: emptied). */
  | { t: number; kind: 'change'; field: number; code: number };

export interface RawReader {
  push(chunk: Uint8Array, t: number): RawReading[];
}

/** Line boards number squares and name pieces themselves: field = square − 1, codes 1–5 for w b W B o. */
export const LINE_CODES: Readonly<Record<string, number>> = { '.': 0, w: 1, b: 2, W: 3, B: 4, o: 5 };

export class DgtRawReader implements RawReader {
  private readonly framer = new DgtFramer();

  push(chunk: Uint8Array, t: number): RawReading[] {
    const out: RawReading[] = [];
    this.framer.push(
      chunk,
      t,
      ({ id, data }) => {
        if (id === MSG.FIELD_UPDATE) out.push({ t, kind: 'change', field: data[0], code: data[1] });
        // Only the dumps whose order the field updates share: 50B and the full dump (never 50W).
        else if (id === MSG.BOARD_DUMP_50B || id === MSG.BOARD_DUMP)
          out.push({ t, kind: 'picture', codes: [...data] });
      },
      () => {},
    );
    return out;
  }
}

export class LineRawReader implements RawReader {
  private readonly decoder: LineDecoder;

  constructor(options: ProtocolOptions) {
    // As the board reports them: no renumbering of a profile already applied.
    this.decoder = new LineDecoder({ size: options.size });
  }

  push(chunk: Uint8Array, t: number): RawReading[] {
    return this.decoder.push(chunk, t).flatMap((e): RawReading[] => {
      if (e.type === 'snapshot' && !e.board.includes(':'))
        return [{ t, kind: 'picture', codes: [...e.board].map((c) => LINE_CODES[c] ?? 5) }];
      if (e.type === 'lift') return [{ t, kind: 'change', field: e.square - 1, code: 0 }];
      if (e.type === 'put')
        return [{ t, kind: 'change', field: e.square - 1, code: LINE_CODES[e.piece ?? 'o'] }];
      return [];
    });
  }
}

/**
 * HID reports are whole pictures of cell values. The layout's empty code and 0 trade places, so that
 * 0 means empty here as for every other board.
 */
export class HidRawReader implements RawReader {
  private readonly layout;

  constructor(options: ProtocolOptions) {
    this.layout = resolveLayout(options.hidLayout);
  }

  push(report: Uint8Array, t: number): RawReading[] {
    const { reportId, cells, codes } = this.layout.layout;
    if ((reportId !== null && report[0] !== reportId) || report.length < this.layout.length) return [];
    const values = Array.from({ length: cells }, (_, i) =>
      hidRawCode(readCell(this.layout, report, i), codes.empty),
    );
    return [{ t, kind: 'picture', codes: values }];
  }
}

/** HID cell value ⇄ raw code (its own inverse): the empty value and 0 swap. */
export const hidRawCode = (value: number, empty: number): number =>
  value === empty ? 0 : value === 0 ? empty : value;
