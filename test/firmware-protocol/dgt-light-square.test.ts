import { describe, expect, it } from 'vitest';
import { createDecoder } from '../../firmware-protocol/index.ts';

// 5.3: a piece on a light square is out of play; a 100-field scan sees it and the arbiter must hear of it.
describe('5.3 DGT 100-field scan, light squares', () => {
  const decoder = () => createDecoder('dgt', { scan: '100' });
  it('5.3 a piece put on a light field is a light-square fault, not a move', () => {
    const events = decoder().push(Uint8Array.from([0x8e, 0x00, 0x05, 0x00, 0x01]), 10);
    expect(events).toEqual([expect.objectContaining({ type: 'fault', code: 'light-square', t: 10 })]);
    expect(events[0]).not.toHaveProperty('resync', true);
  });
  it('5.3 lifting a piece from a light field says nothing', () => {
    expect(decoder().push(Uint8Array.from([0x8e, 0x00, 0x05, 0x00, 0x00]), 10)).toEqual([]);
  });
  it('a dark field of the same scan is still a put on its square', () => {
    const events = decoder().push(Uint8Array.from([0x8e, 0x00, 0x05, 0x01, 0x01]), 10);
    expect(events).toEqual([{ t: 10, type: 'put', square: 1, piece: 'w' }]);
  });
});
