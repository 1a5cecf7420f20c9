// The MQTT topics and payloads the daemons publish and the gateways read (docs/api.md, "MQTT"),
// apart from the bridge so that naming them does not load the mqtt package.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { GameEvent, GameSnapshot } from '../../src/game/types.ts';

export const DEFAULT_BASE_TOPIC = 'damlink';

/** Every topic of one base, the daemons' and the gateways' shared vocabulary. */
export const topics = (base: string) => ({
  /** `online` while at least one daemon of the event is connected (each one's last will is `offline`). */
  bridgeState: `${base}/bridge/state`,
  /** One daemon's detail (DaemonState), with a last will of its own. */
  daemon: (daemon: string) => `${base}/bridge/daemons/${daemon}`,
  daemons: `${base}/bridge/daemons/+`,
  availability: (board: number) => `${base}/boards/${board}/availability`,
  state: (board: number) => `${base}/boards/${board}/state`,
  events: (board: number) => `${base}/boards/${board}/events`,
  roundPdn: (round: number, board: number) => `${base}/rounds/${round}/boards/${board}.pdn`,
  /** `+` for every board: what a gateway subscribes to. */
  anyBoard: (leaf: 'availability' | 'state' | 'events') => `${base}/boards/+/${leaf}`,
  /** A daemon's own probe: once it comes back, the retained messages before it have arrived. */
  probe: (daemon: string) => `${base}/bridge/probes/${daemon}`,
});

/** The payloads of `<base>/bridge/state` (plain text, retained). */
export const BRIDGE_ONLINE = 'online';
export const BRIDGE_OFFLINE = 'offline';

/** `<base>/bridge/daemons/<daemon>` (retained): its last will says offline. */
export interface DaemonState {
  state: 'online' | 'offline';
  daemon: string;
  epoch?: string;
  round?: number;
  boards?: number[];
  /** The daemon's HTTP API (`http://host:port`): a gateway fetches a snapshot there on a gap. */
  api?: string;
}

/** `<base>/boards/<board>/availability`. */
export interface Availability {
  state: 'online' | 'offline';
  daemon: string;
}

/** `<base>/boards/<board>/events`: one GameEvent; board, round, epoch, version are its identity. */
export interface EventMessage {
  board: number;
  round: number;
  epoch: string;
  version: number;
  daemon: string;
  event: GameEvent;
}

/** `<base>/boards/<board>/state`: the board's snapshot after `version`. */
export interface StateMessage {
  board: number;
  round: number;
  epoch: string;
  version: number;
  daemon: string;
  source: string;
  snapshot: GameSnapshot;
}

/**
 * A client id that names this daemon and stays the same across its restarts (so a restarted
 * daemon takes its own boards back): the host and the data directory.
 */
export function defaultClientId(dataDir: string): string {
  const where = createHash('sha1').update(dataDir).digest('hex').slice(0, 8);
  return `damlink-${hostname().replace(/[^\w-]/g, '')}-${where}`;
}
