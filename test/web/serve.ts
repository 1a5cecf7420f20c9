// Starts the real daemon server (daemon/server) on a free loopback port for page tests.
import { join } from 'node:path';
import type { Hub } from '../../daemon/hub.ts';
import { startServer } from '../../daemon/server/index.ts';

export const WEB_ROOT = join(import.meta.dirname, '..', '..', 'daemon', 'web');

export interface Served {
  port: number;
  close(): Promise<void>;
}

export async function serve(hub: Hub, tokens: { arbiter?: string; admin?: string }): Promise<Served> {
  const server = await startServer({ hub, host: '127.0.0.1', port: 0, tokens, webRoot: WEB_ROOT });
  return { port: server.port, close: () => server.close() };
}
