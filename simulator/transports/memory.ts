// In-process transport: the host end is a Node Duplex (write host commands into it, read the board's
// bytes from it), the same shape as a serialport or a socket, so the daemon's transport layer and tests
// can take it directly without ports or sockets.
import { Duplex } from 'node:stream';
import type { BoardLink, VirtualBoard } from '../virtual-board.ts';

/** Connects a host end to `board`; destroying the returned stream disconnects it. */
export function connectInProcess(board: VirtualBoard): Duplex {
  const link: BoardLink = {
    write: (bytes) => {
      if (!host.destroyed) host.push(Buffer.from(bytes));
    },
  };
  const host: Duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, done) {
      board.receive(chunk);
      done();
    },
    destroy(error, done) {
      board.detach(link);
      done(error);
    },
    final(done) {
      board.detach(link);
      done();
    },
  });
  board.attach(link);
  return host;
}
