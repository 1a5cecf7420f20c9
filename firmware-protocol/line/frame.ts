// Line framing shared by both directions: `BODY*CCCC\n`, CCCC = CRC-16/CCITT-FALSE of BODY in hex.

/** Longest line (without CR LF) a host or board must accept. */
export const MAX_LINE = 200;
export const LINE_PROTOCOL_VERSION = '1.0';
export const LINE_PROTOCOL_MAJOR = 1;

/** CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR. */
export function crc16(text: string): number {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++) {
    crc ^= (text.charCodeAt(i) & 0xff) << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const hex4 = (n: number): string => n.toString(16).toUpperCase().padStart(4, '0');

/** BODY → the full line with checksum and LF. */
export const frameLine = (body: string): string => `${body}*${hex4(crc16(body))}\n`;

export type UnframeResult =
  | { ok: true; body: string }
  | { ok: false; code: 'bad-frame' | 'checksum'; message: string };

const HEX4 = /^[0-9A-F]{4}$/;

/** A received line (CR/LF already removed) → its checked body. */
export function unframeLine(line: string): UnframeResult {
  const star = line.lastIndexOf('*');
  if (star < 0) return { ok: false, code: 'bad-frame', message: 'no checksum (missing *)' };
  const sum = line.slice(star + 1);
  if (!HEX4.test(sum))
    return { ok: false, code: 'bad-frame', message: `checksum "${sum}" is not 4 upper-case hex digits` };
  const body = line.slice(0, star);
  const want = crc16(body);
  if (Number.parseInt(sum, 16) !== want) {
    return {
      ok: false,
      code: 'checksum',
      message: `checksum ${sum.toUpperCase()} does not match ${hex4(want)}`,
    };
  }
  return { ok: true, body };
}

/** Printable ASCII without `*` (free text in `fault` and `text` lines). */
export const sanitizeText = (text: string): string => text.replace(/[^\x20-\x29\x2b-\x7e]/g, '?');

/** Latin-1 text ⇄ bytes: one byte per char, so any byte sequence survives decoding. */
export const textToBytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
export const bytesToText = (bytes: Uint8Array): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
};
