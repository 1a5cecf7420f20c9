// Loads firmware-protocol/vectors/*.json: byte streams with the events they must decode to.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BoardEvent,
  checkBoardConfig,
  type ProtocolName,
  type ProtocolOptions,
} from '../../firmware-protocol/index.ts';

export const VECTOR_DIR = join(import.meta.dirname, '../../firmware-protocol/vectors');

export interface Vector {
  name: string;
  description: string;
  protocol: ProtocolName;
  options: ProtocolOptions;
  /** The board-side encoder, fed `expected`, gives exactly the input bytes. */
  roundtrip: boolean;
  input: { t: number; bytes: Uint8Array }[];
  expected: BoardEvent[];
  /** DGT: the other messages `damlink decode` describes (`{"type":"message",…}`), when the vector gives them. */
  messages?: Record<string, unknown>[];
}

export function hexBytes(hex: string): Uint8Array {
  const clean = hex.replace(/\s+/g, '');
  return Uint8Array.from({ length: clean.length / 2 }, (_, i) =>
    Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16),
  );
}

export function loadVectors(): Vector[] {
  return readdirSync(VECTOR_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const raw = JSON.parse(readFileSync(join(VECTOR_DIR, file), 'utf8'));
      const options = checkBoardConfig(raw.options);
      if (!options.ok) throw new Error(`${file}: ${options.error.message}`);
      return {
        name: file,
        description: raw.description,
        protocol: raw.protocol,
        options: options.value,
        roundtrip: raw.roundtrip === true,
        input: raw.input.map((c: { t: number; hex?: string; text?: string }) => ({
          t: c.t,
          bytes: c.hex !== undefined ? hexBytes(c.hex) : Buffer.from(c.text ?? '', 'latin1'),
        })),
        expected: raw.expected,
        messages: raw.messages,
      };
    });
}

/** Faults are compared on code, offset and resync (and message only when the vector gives one). */
export function comparable(events: BoardEvent[], expected: BoardEvent[]): BoardEvent[] {
  return events.map((e, i) => {
    const want = expected[i];
    if (e.type !== 'fault' || (want?.type === 'fault' && want.message !== undefined)) return e;
    const { message: _, ...rest } = e;
    return rest as BoardEvent;
  });
}
