// Frames split at every offset: decoding a stream cut in two anywhere gives what the whole gives.
import { describe, expect, it } from 'vitest';
import { type BoardEvent, createDecoder } from '../../firmware-protocol/index.ts';
import { loadVectors } from './fixtures/vectors.ts';

const untimed = (events: BoardEvent[]) => events.map(({ t: _, ...rest }) => rest);

describe('frames split at every offset', () => {
  for (const v of loadVectors().filter((x) => x.protocol !== 'hid')) {
    it(`${v.name}: every two-way split decodes like the whole stream`, () => {
      const whole = Buffer.concat(v.input.map((c) => c.bytes));
      const once = createDecoder(v.protocol, v.options);
      const reference = untimed([...once.push(whole, 0), ...once.flush(0)]);
      expect(reference.length).toBeGreaterThan(0);
      for (let cut = 0; cut <= whole.length; cut++) {
        const dec = createDecoder(v.protocol, v.options);
        const events = [
          ...dec.push(whole.subarray(0, cut), 0),
          ...dec.push(whole.subarray(cut), 0),
          ...dec.flush(0),
        ];
        // Byte offsets are the same however the stream was cut.
        expect(untimed(events), `cut at ${cut}`).toEqual(reference);
      }
    });
    it(`${v.name}: one byte at a time decodes like the whole stream`, () => {
      const whole = Buffer.concat(v.input.map((c) => c.bytes));
      const once = createDecoder(v.protocol, v.options);
      const reference = untimed(once.push(whole, 0));
      const dec = createDecoder(v.protocol, v.options);
      const events: BoardEvent[] = [];
      for (const b of whole) events.push(...dec.push(Uint8Array.of(b), 0));
      expect(untimed(events)).toEqual(reference);
    });
  }
});
