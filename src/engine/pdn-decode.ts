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

/** A decoder for chunks of a file in `encoding`; a leading BOM is dropped. */
export function pdnDecoder(encoding: PdnEncoding): ChunkDecoder {
  return new TextDecoder(encoding);
}

/** A whole file's text. */
export function decodePdn(bytes: Uint8Array): string {
  const sniffer = new PdnEncodingSniffer();
  sniffer.push(bytes);
  return pdnDecoder(sniffer.end()).decode(bytes);
}
