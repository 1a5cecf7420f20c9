// Games out: HTTP (PDN files, JSON API, static viewer) and the WebSocket API on one port, plus the
// optional MQTT bridge. Reads and calls the Hub only; see docs/api.md.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { hostname } from 'node:os';
import type { HubReader } from '../hub.ts';
import { Counts } from '../keyed.ts';
import { type AuthLimits, addressKey, type Tokens } from './auth.ts';
import type { ClientLimits } from './client.ts';
import { ValidatorCache } from './conditional.ts';
import { type HealthReport, healthReport } from './health.ts';
import { createHttpHandler } from './http.ts';
import type { PngLimits } from './pictures.ts';
import type { TournamentAccess } from '../tournament/access.ts';
import { type ServerLog, WS_PATH, WsApi } from './ws.ts';

export type { ServerLog } from './ws.ts';

export interface ServerOptions {
  /** A daemon's hub (both sides) or a gateway's (the read side: its servers take no arbiter calls). */
  hub: HubReader;
  /** Default 127.0.0.1 (loopback); `0.0.0.0` to share on the network. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  tokens?: Tokens;
  /** Origins besides the daemon's own whose pages may present a token. */
  allowedOrigins?: readonly string[];
  /** Names besides this machine's own (loopback, host name, addresses) that its pages are served under. */
  allowedHosts?: readonly string[];
  /** Directory of the viewer's static files (daemon/web). */
  webRoot?: string;
  log?: ServerLog;
  /** Largest WebSocket frame a client may send (default 64 KiB). */
  maxPayload?: number;
  limits?: Partial<ClientLimits & ConnectionLimits>;
  authLimits?: Partial<AuthLimits>;
  heartbeatMs?: number;
  /** Names the WebSocket API's versions (default: a new one each run); gateways of one broker share one. */
  epoch?: string;
  /** More facts for /health (the publish targets' state). */
  health?: () => Record<string, unknown>;
  /** The tournament: the standings routes read it, the arbiter's tournament calls change it. */
  tournament?: TournamentAccess;
  /** Players' birth dates and sex in the public tournament JSON and TRF (default: left out). */
  publicPersonalData?: boolean;
  /** PNG renderings at once, waiting, per client address, and bytes cached. */
  pngLimits?: Partial<PngLimits>;
}

export interface ConnectionLimits {
  /** Open TCP connections (HTTP and WebSocket) at most, and at most from one address. */
  connections: number;
  connectionsPerAddress: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  connections: 10_000,
  connectionsPerAddress: 256,
};

export interface RunningServer {
  /** `http://host:port` */
  url: string;
  /** `ws://host:port/api/v1` */
  wsUrl: string;
  /**
   * The address others on the network are given (the broker's daemon detail, which gateways fill
   * gaps from): this machine's name when it serves on every interface.
   */
  apiUrl: string;
  host: string;
  port: number;
  /** Connected WebSocket clients right now. */
  clients(): number;
  close(): Promise<void>;
}

const silent: ServerLog = { info() {}, warn() {}, debug() {} };

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.log ?? silent;
  const started = Date.now();
  const health = (): HealthReport =>
    healthReport(options.hub, {
      clients: ws.clients.size,
      uptime: (Date.now() - started) / 1000,
      ...options.health?.(),
    });
  const ws = new WsApi({
    health,
    hub: options.hub,
    tokens: options.tokens ?? {},
    allowedOrigins: options.allowedOrigins,
    allowedHosts: options.allowedHosts,
    authLimits: options.authLimits,
    log,
    maxPayload: options.maxPayload,
    limits: options.limits,
    heartbeatMs: options.heartbeatMs,
    tournament: options.tournament,
    epoch: options.epoch,
  });
  const handle = createHttpHandler({
    hub: options.hub,
    webRoot: options.webRoot,
    validators: new ValidatorCache(),
    health,
    tournament: options.tournament,
    pngLimits: options.pngLimits,
    publicPersonalData: options.publicPersonalData,
  });
  const http = createServer((req, res) => void handle(req, res));
  limitConnections(http, { ...DEFAULT_CONNECTION_LIMITS, ...options.limits }, log);
  http.on('upgrade', (req, socket, head) => ws.upgrade(req, socket, head));
  http.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen({ host, port: options.port, backlog: 2048 }, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  log.info({ host, port }, 'serving');
  return {
    url: `http://${shown}:${port}`,
    wsUrl: `ws://${shown}:${port}${WS_PATH}`,
    apiUrl: `http://${/^(0\.0\.0\.0|::)$/.test(host) ? hostname() : shown}:${port}`,
    host,
    port,
    clients: () => ws.clients.size,
    async close() {
      ws.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/**
 * Caps open connections in all and per address (IPv6 per /64): one host opening sockets without
 * end must not take the file descriptors and memory every spectator needs. Refused sockets are
 * closed before any byte is read.
 */
function limitConnections(http: Server, limits: ConnectionLimits, log: ServerLog): void {
  const perAddress = new Counts<string>();
  let open = 0;
  http.on('connection', (socket: Socket) => {
    const key = addressKey(socket.remoteAddress);
    const fromThere = perAddress.of(key);
    if (open >= limits.connections || fromThere >= limits.connectionsPerAddress) {
      log.debug({ address: socket.remoteAddress, open, fromThere }, 'connection refused: limit');
      socket.destroy();
      return;
    }
    open++;
    perAddress.add(key);
    socket.once('close', () => {
      open--;
      perAddress.remove(key);
    });
  });
}
