// Games out: HTTP (PDN files, JSON API, static viewer) and the WebSocket API on one port, plus the
// optional MQTT bridge. Reads and calls the Hub only; see docs/api.md.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Hub } from '../hub.ts';
import type { Tokens } from './auth.ts';
import type { ClientLimits } from './client.ts';
import { ValidatorCache } from './conditional.ts';
import { createHttpHandler } from './http.ts';
import type { MqttBridge } from './mqtt.ts';
import { RoundGames } from './rounds.ts';
import type { TournamentAccess } from './tournament-api.ts';
import { type ServerLog, WS_PATH, WsApi } from './ws.ts';

export type { ServerLog } from './ws.ts';

export interface ServerOptions {
  hub: Hub;
  /** Default 127.0.0.1 (loopback); `0.0.0.0` to share on the network. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  tokens?: Tokens;
  /** Directory of the viewer's static files (daemon/web). */
  webRoot?: string;
  log?: ServerLog;
  /** `mqtt://host:port`: publish GameEvents and PDN to a broker. */
  mqttUrl?: string;
  /** Largest WebSocket frame a client may send (default 64 KiB). */
  maxPayload?: number;
  limits?: Partial<ClientLimits>;
  heartbeatMs?: number;
  /** The tournament: the standings routes read it, the arbiter's tournament calls change it. */
  tournament?: TournamentAccess;
}

export interface RunningServer {
  /** `http://host:port` */
  url: string;
  /** `ws://host:port/api/v1` */
  wsUrl: string;
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
  const rounds = new RoundGames(options.hub);
  const ws = new WsApi({
    hub: options.hub,
    rounds,
    tokens: options.tokens ?? {},
    log,
    maxPayload: options.maxPayload,
    limits: options.limits,
    heartbeatMs: options.heartbeatMs,
    tournament: options.tournament,
  });
  const handle = createHttpHandler({
    hub: options.hub,
    webRoot: options.webRoot,
    validators: new ValidatorCache(),
    rounds,
    health: () => ({ clients: ws.clients.size, uptime: (Date.now() - started) / 1000 }),
    tournament: options.tournament,
  });
  const http = createServer((req, res) => void handle(req, res));
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
  let mqtt: MqttBridge | undefined;
  if (options.mqttUrl) {
    // Loaded only when a broker is configured: the mqtt package costs ~300 ms of start-up.
    const { startMqttBridge } = await import('./mqtt.ts');
    mqtt = await startMqttBridge({ hub: options.hub, url: options.mqttUrl, log });
  }
  log.info({ host, port }, 'serving');
  return {
    url: `http://${shown}:${port}`,
    wsUrl: `ws://${shown}:${port}${WS_PATH}`,
    host,
    port,
    clients: () => ws.clients.size,
    async close() {
      ws.close();
      await mqtt?.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

export type { MqttBridge } from './mqtt.ts';
