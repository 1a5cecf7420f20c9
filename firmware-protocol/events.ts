// The one event type the rest of damlink sees, whatever protocol the board speaks.
// Matches the sensor-event file contract in docs/design.md (one JSON object per line in `.jsonl`).
// Time `t` is milliseconds; decoders are pure, so the caller passes the receive time in.

import type { Side } from './side.ts';
import type { ClockReading } from './clock-reading.ts';

export type { Side } from './side.ts';

/** A piece as a board reports it: upper case is a king. */
export const PIECE_CODES = ['w', 'b', 'W', 'B'] as const;
export type PieceCode = (typeof PIECE_CODES)[number];

/**
 * A whole-board picture: either a FEN (`W:W31,…:B1,…`) or one character per square in FMJD order
 * (50 on 10×10, 32 on 8×8): `w b W B` a piece, `.` empty, `o` occupied by a piece of unknown colour
 * (occupancy-only boards).
 */
export type BoardString = string;

/**
 * How a board that keeps its history (line protocol 1.1, capability `history`) numbered and timed
 * one of its changes: what lets the host ask for the ones it missed and replay them with the board's
 * own times.
 */
export interface BoardStamp {
  /** The board's event number: one more for each change, from 1 at power-up (32-bit, no wrap in a game). */
  n: number;
  /** The board's own time of the change: milliseconds since power-up. */
  ms: number;
  /** Sent again from the board's memory (a `rec` line answering `history`), not as it happened. */
  recalled?: true;
}

export interface LiftEvent {
  t: number;
  type: 'lift';
  square: number;
  stamp?: BoardStamp;
}
export interface PutEvent {
  t: number;
  type: 'put';
  square: number;
  /** Absent on occupancy-only boards. */
  piece?: PieceCode;
  stamp?: BoardStamp;
}
export interface SnapshotEvent {
  t: number;
  type: 'snapshot';
  board: BoardString;
}
export interface ClockEvent extends ClockReading {
  t: number;
  type: 'clock';
  /** The side whose flag the clock shows fallen, for clocks that report it (DGT, line `clock … FLAG`). */
  flag?: Side;
}
export interface PressEvent {
  t: number;
  type: 'press';
  /** The side whose button was pressed (that side has finished its move). */
  side: Side;
  stamp?: BoardStamp;
}
/** A scanning board's period (ms), as a hello or a board description may give it. */
export const SCAN_MS_MIN = 20;
export const SCAN_MS_MAX = 2000;
export const isScanPeriod = (ms: unknown): ms is number =>
  Number.isInteger(ms) && (ms as number) >= SCAN_MS_MIN && (ms as number) <= SCAN_MS_MAX;

export interface HelloEvent {
  t: number;
  type: 'hello';
  serial: string;
  protocol: string;
  firmware?: string;
  squares: 50 | 32 | 100 | 64;
  senses: 'pieces' | 'occupancy';
  /** Optional features the board announced (line protocol `caps=`), e.g. `clock`, `text`, `leds`. */
  capabilities?: string[];
  /** History boards: changes at every power-up, so event numbers are only compared within one boot. */
  boot?: string;
  /**
   * The board reports its changes by scans of this period (ms): one scan's changes back to back, in
   * the order it scans its fields, not the order the hands made them (line `scan=`, a DGT board's
   * description). Absent: each change is sent as it happens.
   */
  scanMs?: number;
}
export interface FaultEvent {
  t: number;
  type: 'fault';
  /** Stable machine-readable code, e.g. `checksum`, `sequence-gap`, `bad-frame`, `board-fault`. */
  code: string;
  message: string;
  /** Byte offset in the decoder's input stream (or line number for line protocols), when known. */
  offset?: number;
  /** True when the host should ask the board for a full snapshot to resynchronise. */
  resync?: boolean;
  /** `clock-error`: the clock command the clock refused (DGT: its byte, 0x0a SETNRUN). */
  command?: number;
}
/** Time passing with nothing on the board: the daemon feeds these so settle windows can expire. */
export interface TickEvent {
  t: number;
  type: 'tick';
  /**
   * Set when the board itself sent something that changes nothing on the board: `pong` for a
   * keep-alive reply (line `pong`, DGT serial number), `ack` for a command acknowledgement (DGT clock
   * ack). Absent on the daemon's own timer ticks.
   */
  reply?: 'pong' | 'ack';
  /** `ack`: the clock command acknowledged (DGT: its byte, 0x0a SETNRUN). */
  command?: number;
  /**
   * The daemon's ticks: steps of a gap search under way this tick grants the tracker (absent: one,
   * or none for a tracker whose searches take granted steps only).
   */
  steps?: number;
}

/**
 * The end of a board's answer to `history` (line `recs`). The connection acts on it; it is never
 * journaled nor seen by a game.
 */
export interface HistoryEndEvent {
  t: number;
  type: 'history-end';
  /** `done`: every change after the one asked for was sent again; `gone`: the board no longer has them. */
  outcome: 'done' | 'gone';
  /** The number of the board's latest change. */
  last: number;
  /** The board's time when it answered (ms since power-up): the recalled changes' times are read against it. */
  ms: number;
  /** `gone`: the oldest change the board still has. */
  first?: number;
}

/**
 * A DGT board's own record (EE_MOVES) of its field changes, read through the field map: each change
 * stamped with its place in the record (`n`, from 1, oldest first) and a time spaced as the record
 * allows (`ms`: 100 ms after the entry before when it was less than 250 ms after it, else 1 s; the
 * record keeps no finer time), recalled. The connection acts on it; never journaled as such.
 */
export interface HistoryLogEvent {
  t: number;
  type: 'history-log';
  changes: (LiftEvent | PutEvent)[];
  /** `ms` of the record's end, 1 s after its last change. */
  ms: number;
}

export type BoardEvent =
  | LiftEvent
  | PutEvent
  | SnapshotEvent
  | ClockEvent
  | PressEvent
  | HelloEvent
  | FaultEvent
  | TickEvent
  | HistoryEndEvent
  | HistoryLogEvent;

/** The changes a history board numbers and keeps: what it sends again on `history`. */
export type StampedEvent = LiftEvent | PutEvent | PressEvent;

export type BoardEventType = BoardEvent['type'];
