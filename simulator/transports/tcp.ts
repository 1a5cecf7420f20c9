// A board behind a TCP port, as a ser2net bridge would expose it: one host at a time; a new
// connection replaces the old one, and the board keeps playing while nobody listens.
import { createServer, type Server, type Socket } from 'node:net';
import type { BoardLink, VirtualBoard } from '../virtual-board.ts';

export interface TcpBoardServer {
  /** `tcp://HOST:PORT` as `damlink run --board` takes it. */
  address: string;
  port: number;
  close(): Promise<void>;
}

export function listenTcp(
  board: VirtualBoard,
  host: string,
  port: number,
  onConnect?: () => void,
): Promise<TcpBoardServer> {
  const sockets = new Set<Socket>();
  let current: Socket | undefined;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    if (current) current.destroy();
    current = socket;
    const link: BoardLink = {
      write: (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      },
    };
    socket.on('data', (chunk: Buffer) => board.receive(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      board.detach(link);
      if (current === socket) current = undefined;
    });
    board.attach(link);
    onConnect?.();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      resolve({
        address: `tcp://${host}:${actual}`,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
