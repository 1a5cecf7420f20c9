// What the daemon and the simulator hold on to: decoders, encoders, host commands and the options
// that describe a physical board.
import type { BoardSize } from './board-string.ts';
import type { ClockReading } from './clock-reading.ts';
import type { BoardEvent } from './events.ts';
import type { OrientationSetting } from './orientation.ts';

/** Host → board requests. Not every protocol can say everything: see `canEncodeHostCommand`. */
export type HostCommand =
  /** Send the whole board (line `dump`, DGT 0x50 / 0x42, HID snapshot report request). */
  | { type: 'snapshot' }
  /** Liveness: the board answers with a `tick` (reply `pong`). Line `ping`, DGT 0x45. */
  | { type: 'ping'; token?: string }
  /** Who are you: the board answers with a `hello`. Line `ident`, DGT 0x45 + 0x4d. */
  | { type: 'identify' }
  /**
   * Send again every change numbered after `after`, as it was (line `history`, capability `history`):
   * `rec` lines, then `recs`.
   */
  | { type: 'history'; after: number }
  /** Set the clock (times in ms) and which side runs. Line `clock` (capability), DGT SETNRUN. */
  | ({ type: 'set-clock' } & ClockReading)
  /** Show a short text (line `text`, capability; DGT 3000 clock: 8 characters). */
  | { type: 'display'; text: string }
  /** Light these squares' LEDs, all others off (line `leds`, capability). */
  | { type: 'leds'; squares: number[] }
  /** DGT 0x40: back to idle, cancels update mode. */
  | { type: 'reset' }
  /**
   * DGT update mode: `changes` field updates only (0x44), `changes+clock` plus the clock every second
   * (0x43), `changes+clock-nice` plus the clock when it changes (0x4b).
   */
  | { type: 'update-mode'; mode: 'changes' | 'changes+clock' | 'changes+clock-nice' }
  /** DGT 0x41: send the clock now. */
  | { type: 'clock-request' }
  /** DGT 0x45 (short) / 0x55 (long). */
  | { type: 'serial'; long?: boolean }
  /** DGT 0x4d. */
  | { type: 'version' }
  /** DGT 0x47. */
  | { type: 'trademark' }
  /**
   * DGT 0x51 / 0x53 / 0x54: changes the scan mode AND WRITES IT TO THE BOARD'S EEPROM. Encoded only
   * with `allowEepromScanCommands: true`.
   */
  | { type: 'scan-mode'; scan: '50B' | '50W' | '100' }
  /** HID: the output report that puts the board into real-time (snapshot per change) mode. */
  | { type: 'realtime' };

export type HostCommandType = HostCommand['type'];

/** Physical → FMJD numbering of a board's scan fields; each entry a square number, or 0 for none. */
export interface FieldMap {
  /** 50 entries: DGT 50B / 50W dumps and field updates in 50-field scan mode (default: field i ↦ i+1). */
  fields50?: number[];
  /** 50 entries for 50W dumps (without them a 50W dump is a fault: its order is not known). */
  fields50W?: number[];
  /** 100 entries: DGT 100-field dumps and updates (default: row-major from Black's side, light = 0). */
  fields100?: number[];
  /** 64 entries: 8×8 boards (default: row-major from Black's side, light = 0). */
  fields64?: number[];
}

/** DGT piece byte for each piece (default white man 0x01, black man 0x04, white king 0x07, black king 0x0a). */
export interface PieceCodes {
  w: number;
  b: number;
  W: number;
  B: number;
}

/** How an HID board lays out a snapshot report. */
export interface HidLayout {
  /** USB ids, used by the daemon to find the device (not by the decoder). */
  vendorId?: number;
  productId?: number;
  usagePage?: number;
  /** First byte of a board report; reports with another first byte are ignored. null: no report id. */
  reportId: number | null;
  /** Byte offset (within the report, report id included) of cell 0. */
  offset: number;
  /** How many cells the report carries (50 / 32 dark squares, or 100 / 64 all squares). */
  cells: 50 | 32 | 100 | 64;
  /** 4: two cells a byte; 8: one cell a byte. */
  bitsPerCell: 4 | 8;
  /** With 4 bits a cell: which nibble holds the lower-numbered cell. */
  nibbleOrder: 'low-first' | 'high-first';
  /** Cell → physical square (0 = not a playing square). Default: dark-square or row-major numbering. */
  cellMap?: number[];
  /** `occupancy`: the board reports only `occupied` / `empty` (default `pieces`). */
  senses?: 'pieces' | 'occupancy';
  /** Cell values. `occupied`: a piece of unknown colour (occupancy-only boards). */
  codes: { empty: number; w: number; b: number; W: number; B: number; occupied?: number };
  /** Output report that enters real-time mode. */
  realtimeCommand: number[];
  /** Output report that asks for one snapshot report (when the board has one). */
  snapshotCommand?: number[];
}

/** Everything that describes a physical board; each protocol reads the part it needs. */
export interface ProtocolOptions {
  /** 10 (default) or 8. */
  size?: BoardSize;
  /** DGT / HID: orientation detection (default `auto`). */
  orientation?: OrientationSetting;
  /** DGT field map (defaults documented in PROTOCOL.md). */
  fieldMap?: FieldMap;
  /** DGT piece codes. */
  pieceCodes?: PieceCodes;
  /** DGT: how field updates are numbered until a dump tells otherwise (default `50`; 8×8 boards: 64). */
  scan?: '50' | '100';
  /** DGT: which clock side (seen from the clock's front) is White's (default `left`). */
  clockWhite?: 'left' | 'right';
  /** DGT: allow encoding the EEPROM-persistent scan commands 0x51 / 0x53 / 0x54. */
  allowEepromScanCommands?: boolean;
  /** HID report layout (default: the damlink reference layout). */
  hidLayout?: HidLayout;
  /**
   * DGT: the board's scan period in ms — it reports each scan's changes back to back in field order,
   * so their order is not the hands' (default DGT_SCAN_MS; 0: it reports changes as they happen).
   */
  scanMs?: number;
  /** DGT: `occupancy` when the board reads every piece alike (default `pieces`). */
  senses?: 'pieces' | 'occupancy';
  /** DGT, occupancy boards: the byte the board sends for any piece (default: the white man's code). */
  occupiedCode?: number;
  /**
   * Line boards: reported square − 1 → the square it really is (a calibrated board whose firmware
   * numbers its squares differently). Default: as reported.
   */
  squareMap?: number[];
}

/** Host side: bytes in, events out. Stateful, handles partial frames, never throws. */
export interface Decoder {
  /** The name its descriptor is listed under (protocols.ts). */
  readonly protocol: string;
  /** Bytes as received (HID: one input report per call), with the receive time in ms. */
  push(chunk: Uint8Array, t: number): BoardEvent[];
  /** End of the stream: reports a frame left half-received. */
  flush(t: number): BoardEvent[];
}

/** Board side (simulator): an event the board wants to tell → the bytes it sends. Empty when the
 * protocol cannot express that event. */
export interface BoardEncoder {
  /** The name its descriptor is listed under (protocols.ts). */
  readonly protocol: string;
  encode(event: BoardEvent): Uint8Array;
  /** A board that keeps its own record (DGT: EE_MOVES): what happened on it, whether sent or not. */
  remember?(event: BoardEvent): void;
  /** That record, as the board answers the host's `history` (DGT 0x49: the EE_MOVES message). */
  eeMoves?(): Uint8Array;
}

/** Board side (simulator): bytes from the host → the commands in them. Stateful, never throws. */
export interface CommandParser {
  /** The name its descriptor is listed under (protocols.ts). */
  readonly protocol: string;
  push(chunk: Uint8Array): HostCommand[];
}
