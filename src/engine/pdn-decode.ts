// PDN files come as UTF-8 (with or without a byte-order mark) or, from older draughts programs, in a
// one-byte code page. A file is read as UTF-8 when all of it is valid UTF-8, else as Windows-1252
// (Latin-1 with the printable 0x80–0x9F of Windows, which is what such files use in practice).

export type PdnEncoding = 'utf-8' | 'windows-1252';

/** Finds a file's encoding from its bytes, given in chunks of any size. */
export class PdnEncodingSniffer {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private valid = true;

  /** False once the bytes seen are not UTF-8 (no need to read further). */
  push(bytes: Uint8Array): boolean {
    if (!this.valid) return false;
    try {
      this.utf8.decode(bytes, { stream: true });
    } catch {
      this.valid = false;
    }
    return this.valid;
  }

  end(): PdnEncoding {
    if (this.valid) {
      try {
        this.utf8.decode();
      } catch {
        this.valid = false;
      }
    }
    return this.valid ? 'utf-8' : 'windows-1252';
  }
}

export interface ChunkDecoder {
  /** Text of the next chunk (`stream: true` keeps a character cut by the chunk's end for later). */
  decode(bytes?: Uint8Array, options?: { stream?: boolean }): string;
}

/** What Windows-1252 puts at 0x80–0x9F (0 where it has nothing, kept as the C1 control). */
// biome-ignore format: the code page's table
const WINDOWS_1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** One byte, one character: nothing is carried from one chunk to the next. */
const windows1252: ChunkDecoder = {
  decode(bytes?: Uint8Array): string {
    if (!bytes) return '';
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) {
      const part = Array.from(bytes.subarray(i, i + 8192), (b) =>
        b >= 0x80 && b < 0xa0 ? WINDOWS_1252_HIGH[b - 0x80] || b : b,
      );
      out += String.fromCharCode(...part);
    }
    return out;
  },
};

/** A decoder for chunks of a file in `encoding`; a leading UTF-8 BOM is dropped. */
export function pdnDecoder(encoding: PdnEncoding): ChunkDecoder {
  return encoding === 'utf-8' ? new TextDecoder('utf-8') : windows1252;
}

/** A whole file's text. */
export function decodePdn(bytes: Uint8Array): string {
  const sniffer = new PdnEncodingSniffer();
  sniffer.push(bytes);
  return pdnDecoder(sniffer.end()).decode(bytes);
}
