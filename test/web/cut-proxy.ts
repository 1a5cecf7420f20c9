// A TCP proxy in front of the daemon so a test can cut the network and bring it back, the way a
// hall's Wi-Fi drops: open connections die, new ones are refused until restored.
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface CutProxy {
  port: number;
  /** Destroys every open connection and refuses new ones. */
  cut(): void;
  restore(): void;
  /** Sends new connections to another port (a daemon restarted elsewhere). */
  retarget(port: number): void;
  close(): Promise<void>;
}

export async function startCutProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<CutProxy> {
  const sockets = new Set<Socket>();
  let down = false;
  let target = targetPort;
  const server: Server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(target, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('proxy has no port');
  return {
    port: address.port,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
    },
    retarget(port: number) {
      target = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
