// The feed frame written straight to spectators' sockets must read as an ordinary WebSocket text
// message, whatever its length (7-bit, 16-bit and 64-bit length forms of RFC 6455 §5.2).
import { describe, expect, it } from 'vitest';
import * as ws from 'ws';

// ws's frame reader (exported by the package, absent from its type definitions).
interface FrameReader {
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'error', listener: (e: Error) => void): void;
  write(chunk: Buffer): void;
}
const { Receiver } = ws as unknown as { Receiver: new (o: { isServer: boolean }) => FrameReader };
import { textFrame } from '../../../daemon/server/wire.ts';

function readBack(frame: Buffer): Promise<string> {
  const receiver = new Receiver({ isServer: false });
  return new Promise((resolve, reject) => {
    receiver.on('message', (data: Buffer, isBinary: boolean) =>
      isBinary ? reject(new Error('binary')) : resolve(data.toString()),
    );
    receiver.on('error', reject);
    receiver.write(frame);
  });
}

describe('textFrame', () => {
  for (const length of [0, 1, 125, 126, 127, 65535, 65536, 200_000]) {
    it(`carries a ${length}-byte message`, async () => {
      const text = 'é'.repeat(length >> 1) + 'x'.repeat(length & 1);
      const payload = Buffer.from(text);
      expect(payload.length).toBe(length);
      expect(await readBack(textFrame(text))).toBe(text);
    });
  }
});
