// A connection's diversion (a calibration reading the board raw): the bytes it is given are its
// own, also the ones it closes on.
import { describe, expect, it } from 'vitest';
import type { Link } from '../../../daemon/transport/link.ts';
import { Diversion } from '../../../daemon/transport/diversion.ts';

describe('Diversion', () => {
  it('a reader that closes on the bytes it is given still took them: none go to the game', () => {
    const diversion = new Diversion();
    const heard: number[] = [];
    let ended = 0;
    let link: Link | undefined;
    link = diversion.open(
      {
        onData: (bytes) => {
          heard.push(...bytes);
          link?.close();
        },
        onClose: () => {},
      },
      undefined,
      () => {},
      () => ended++,
    );
    expect(diversion.take(Uint8Array.of(1, 2))).toBe(true);
    expect(heard).toEqual([1, 2]);
    expect(ended).toBe(1);
    // Closed: the next bytes are the game's.
    expect(diversion.take(Uint8Array.of(3))).toBe(false);
    expect(heard).toEqual([1, 2]);
  });
});
