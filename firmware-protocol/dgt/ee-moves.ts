// The DGT board's own record: EE_MOVES, the answer (0x8f) to SEND_EE_MOVES (0x49), a cyclic buffer
// of 0x1f00 bytes kept in the board's EEPROM, oldest first, ending with EOF. Built from DGT's public
// header (dgtbrd.h) alone, which is all that documents it; not yet read from a real draughts board.
//   piece tag  0t0r nnnn  (0x40–0x5f: nnnn the piece code, 0 = the field emptied; r: less than
//              250 ms after the tag before) + 00ii iiii (the field, 50-field numbering on draughts)
//   time tag   0uuf hhhh  (0x60–0x69 the right clock, 0x70–0x79 the left) + BCD minutes + BCD seconds
//   one byte   0x6a POWERUP, 0x6b EOF, 0x6c FOURROWS, 0x6d EMPTYBOARD, 0x6e DOWNLOADED, 0x6f BEGINPOS,
//              0x7a BEGINPOS_ROT, 0x7b START_TAG, 0x7c WATCHDOG_ACTION, 0x7f NOP, 0x00 NOP2
export const EE = {
  POWERUP: 0x6a,
  EOF: 0x6b,
  FOURROWS: 0x6c,
  EMPTYBOARD: 0x6d,
  DOWNLOADED: 0x6e,
  BEGINPOS: 0x6f,
  BEGINPOS_ROT: 0x7a,
  START_TAG: 0x7b,
  WATCHDOG_ACTION: 0x7c,
  NOP: 0x7f,
  NOP2: 0x00,
} as const;

/** The EEPROM's cyclic buffer. */
export const EE_BUFFER_SIZE = 0x1f00;

const PIECE_TAG = 0x40;
const QUICK = 0x10;
const LEFT = 0x10;

const TAGS = {
  [EE.POWERUP]: 'powerup',
  [EE.FOURROWS]: 'fourrows',
  [EE.EMPTYBOARD]: 'emptyboard',
  [EE.DOWNLOADED]: 'downloaded',
  [EE.BEGINPOS]: 'beginpos',
  [EE.BEGINPOS_ROT]: 'beginpos-rot',
  [EE.START_TAG]: 'start',
  [EE.WATCHDOG_ACTION]: 'watchdog',
} as const;
type TagName = (typeof TAGS)[keyof typeof TAGS];
const TAG_BYTE = Object.fromEntries(Object.entries(TAGS).map(([b, name]) => [name, Number(b)])) as Record<
  TagName,
  number
>;

export type EeEntry =
  | { kind: 'piece'; field: number; code: number; quick: boolean }
  /** A clock reading of one side (whole seconds, hours 0–9). */
  | { kind: 'time'; side: 'left' | 'right'; seconds: number }
  | { kind: 'tag'; tag: TagName };

const bcd = (b: number): number | undefined =>
  b >> 4 <= 9 && (b & 0x0f) <= 9 ? (b >> 4) * 10 + (b & 0x0f) : undefined;
const toBcd = (n: number): number => (Math.floor(n / 10) << 4) | (n % 10);

/** One entry's bytes (the board side: the simulator's DGT board writes its log with these). */
export function eeEntryBytes(e: EeEntry): number[] {
  switch (e.kind) {
    case 'piece':
      return [PIECE_TAG | (e.quick ? QUICK : 0) | (e.code & 0x0f), e.field & 0x3f];
    case 'time': {
      const s = Math.max(0, Math.min(9 * 3600 + 59 * 60 + 59, Math.floor(e.seconds)));
      const hours = Math.floor(s / 3600);
      return [0x60 | (e.side === 'left' ? LEFT : 0) | hours, toBcd(Math.floor(s / 60) % 60), toBcd(s % 60)];
    }
    case 'tag':
      return [TAG_BYTE[e.tag]];
  }
}

/** Entries from `from` to EOF (or the end), or undefined when a byte there is no entry (a start cut mid-entry). */
function entriesFrom(data: Uint8Array, from: number): EeEntry[] | undefined {
  const out: EeEntry[] = [];
  let i = from;
  while (i < data.length) {
    const b = data[i];
    if (b === EE.EOF) return out;
    if (b === EE.NOP || b === EE.NOP2) {
      i++;
      continue;
    }
    if (b >= 0x40 && b <= 0x5f) {
      const field = data[i + 1];
      if (field === undefined || field > 0x3f) return undefined;
      out.push({ kind: 'piece', field, code: b & 0x0f, quick: (b & QUICK) !== 0 });
      i += 2;
      continue;
    }
    if ((b >= 0x60 && b <= 0x69) || (b >= 0x70 && b <= 0x79)) {
      const minutes = bcd(data[i + 1] ?? 0xff);
      const seconds = bcd(data[i + 2] ?? 0xff);
      if (minutes === undefined || seconds === undefined || minutes > 59 || seconds > 59) return undefined;
      const side = b & LEFT ? 'left' : 'right';
      out.push({ kind: 'time', side, seconds: (b & 0x0f) * 3600 + minutes * 60 + seconds });
      i += 3;
      continue;
    }
    const tag = TAGS[b as keyof typeof TAGS];
    if (tag === undefined) return undefined;
    out.push({ kind: 'tag', tag });
    i++;
  }
  // The message's end ends the record too.
  return out;
}

/**
 * The log's entries, oldest first. A buffer that wrapped may begin inside an entry (at most its last
 * two bytes): it is read from the first of bytes 0–2 from which every byte to EOF is an entry.
 * Undefined when none is.
 */
export function parseEeMoves(data: Uint8Array): { entries: EeEntry[]; skipped: number } | undefined {
  for (let skipped = 0; skipped < 3 && skipped < data.length; skipped++) {
    const entries = entriesFrom(data, skipped);
    if (entries) return { entries, skipped };
  }
  return undefined;
}

/**
 * The board side's log: entries written into a cyclic buffer of `size` bytes as the board's EEPROM
 * keeps them; `bytes()` is the EE_MOVES message's data, oldest first, ending with EOF.
 */
export class EeLog {
  private readonly buffer: Uint8Array;
  private written = 0;

  constructor(readonly size = EE_BUFFER_SIZE) {
    this.buffer = new Uint8Array(size);
  }

  write(entry: EeEntry): void {
    for (const b of eeEntryBytes(entry)) {
      this.buffer[this.written % this.size] = b;
      this.written++;
    }
  }

  /** Oldest first, then EOF: a buffer that wrapped gives its last size − 1 bytes (the oldest may be cut). */
  bytes(): Uint8Array {
    const keep = Math.min(this.written, this.size - 1);
    const out = new Uint8Array(keep + 1);
    for (let i = 0; i < keep; i++) out[i] = this.buffer[(this.written - keep + i) % this.size];
    out[keep] = EE.EOF;
    return out;
  }
}
