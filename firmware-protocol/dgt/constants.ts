// DGT serial protocol numbers (from the public dgtbrd.h as open drivers use it).

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
  SEND_UPDATE_NICE: 0x4b,
  SEND_VERSION: 0x4d,
  SEND_BRD_50B: 0x50,
  SCAN_50B: 0x51,
  SEND_BRD_50W: 0x52,
  SCAN_50W: 0x53,
  SCAN_100: 0x54,
  RETURN_LONG_SERIALNR: 0x55,
  CLOCK_MESSAGE: 0x2b,
} as const;

/** Inside a CLOCK_MESSAGE (`2b SIZE 03 CMD … 00`). */
export const CLOCK = {
  START: 0x03,
  END: 0x00,
  SETNRUN: 0x0a,
  ASCII: 0x0c,
} as const;

/** SETNRUN's last data byte: which side runs. */
export const RUN = { LEFT: 0x01, RIGHT: 0x02, NONE: 0x04 } as const;

export const DEFAULT_PIECE_CODES = { w: 0x01, b: 0x04, W: 0x07, B: 0x0a } as const;
