// DGT serial protocol numbers, named as in DGT's public dgtbrd.h (without its DGT_ / DGT_CMD_CLOCK_
// prefixes) as the open drivers keep it.

/**
 * A DGT board scans its fields every 200–300 ms and sends each scan's field updates back to back in
 * field order: the longest period, since a change may be reported a whole scan after it was made.
 */
export const DGT_SCAN_MS = 300;

/** Board → host message ids as they appear on the wire (high bit set). */
export const MSG = {
  BOARD_DUMP: 0x86,
  BWTIME: 0x8d,
  FIELD_UPDATE: 0x8e,
  EE_MOVES: 0x8f,
  BUSADRES: 0x90,
  SERIALNR: 0x91,
  TRADEMARK: 0x92,
  VERSION: 0x93,
  BOARD_DUMP_50B: 0x94,
  BOARD_DUMP_50W: 0x95,
  BATTERY_STATUS: 0xa0,
  LONG_SERIALNR: 0xa2,
} as const;

/** Fixed total sizes (3 header bytes included); BOARD_DUMP has two (chess 64 / draughts 100 fields). */
export const FIXED_SIZE: Readonly<Record<number, readonly number[]>> = {
  [MSG.BOARD_DUMP]: [67, 103],
  [MSG.BWTIME]: [10],
  [MSG.FIELD_UPDATE]: [5],
  [MSG.BUSADRES]: [5],
  [MSG.SERIALNR]: [8],
  [MSG.VERSION]: [5],
  [MSG.BOARD_DUMP_50B]: [53],
  [MSG.BOARD_DUMP_50W]: [53],
  [MSG.LONG_SERIALNR]: [13],
};

/** Largest size a 14-bit length can say. */
export const MAX_SIZE = 0x3fff;

/** Host → board command bytes. */
export const CMD = {
  RESET: 0x40,
  SEND_CLK: 0x41,
  SEND_BRD: 0x42,
  SEND_UPDATE: 0x43,
  SEND_UPDATE_BRD: 0x44,
  RETURN_SERIALNR: 0x45,
  SEND_TRADEMARK: 0x47,
  SEND_EE_MOVES: 0x49,
  SEND_UPDATE_NICE: 0x4b,
  SEND_BATTERY_STATUS: 0x4c,
  SEND_VERSION: 0x4d,
  SEND_BRD_50B: 0x50,
  SCAN_50B: 0x51,
  SEND_BRD_50W: 0x52,
  SCAN_50W: 0x53,
  SCAN_100: 0x54,
  RETURN_LONG_SERIALNR: 0x55,
  CLOCK_MESSAGE: 0x2b,
} as const;

/** Inside a CLOCK_MESSAGE (`2b SIZE START_MESSAGE CMD … END_MESSAGE`). */
export const CLOCK = {
  /** Change the main display (segments). */
  DISPLAY: 0x01,
  ICONS: 0x02,
  /** Clears a custom display: the clock shows its times again. Sent after SETNRUN, as the open drivers do. */
  END: 0x03,
  BUTTON: 0x08,
  VERSION: 0x09,
  /** Set both times and which side runs (accepted in the clock's mode 23 only). */
  SETNRUN: 0x0a,
  BEEP: 0x0b,
  /** 8 characters on a DGT 3000. */
  ASCII: 0x0c,
  /** First and last byte around every clock command. */
  START_MESSAGE: 0x03,
  END_MESSAGE: 0x00,
} as const;

/** A clock ack's first byte (ack0) and the automatic acks' second (ack1, bit7 set). */
export const CLOCK_ACK = {
  OK: 0x10,
  ERROR: 0x40,
  /** ack1 of an automatic ack: the clock is ready. */
  READY: 0x81,
  /** ack1 of an automatic ack: a button was pressed (ack3 0x31–0x35 says which). */
  BUTTON: 0x88,
} as const;

/** SETNRUN's last data byte: which side runs. */
export const RUN = { LEFT: 0x01, RIGHT: 0x02, NONE: 0x04 } as const;

export const DEFAULT_PIECE_CODES = { w: 0x01, b: 0x04, W: 0x07, B: 0x0a } as const;
