// ≥ 10^5 seeded fuzz inputs (random bytes, truncated frames, flipped bits, garbage between frames,
// random chunking): no decoder throws, every damage that must be noticed gives a fault, and the
// clean frames after it decode. `npm run bench -- protocol` runs 10^6.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDecoder, PROTOCOLS } from '../../firmware-protocol/index.ts';
import { fuzz } from './fixtures/fuzz-harness.ts';

describe('fuzzing the decoders', () => {
  it('10^5 damaged streams: never throws, reports the damage, recovers at the next valid frame', () => {
    const stats = fuzz(100_000, 20261129);
    expect(stats.inputs).toBe(100_000);
    expect(stats.firstProblem).toBeUndefined();
    expect(stats.uncaught).toBe(0);
    expect(stats.missedFaults).toBe(0);
    expect(stats.notRecovered).toBe(0);
    expect(stats.events).toBeGreaterThan(stats.inputs);
  }, 60_000);

  it('fast-check: arbitrary byte chunks never make a decoder throw', () => {
    for (const protocol of PROTOCOLS) {
      fc.assert(
        fc.property(fc.array(fc.uint8Array({ maxLength: 80 }), { maxLength: 8 }), (chunks) => {
          const dec = createDecoder(protocol);
          chunks.forEach((c, i) => {
            const out = dec.push(c, i);
            expect(Array.isArray(out)).toBe(true);
          });
          dec.flush(99);
        }),
        { numRuns: 2_000, seed: 7 },
      );
    }
  });
});
