// Optional MQTT bridge, laid out as zigbee2mqtt lays out its topics (docs/api.md, "MQTT"): the
// bridge's state with a last will, the daemon's own detail, and per board its availability, its
// retained state (the snapshot), its GameEvents at QoS 1, and its PDN per round. Several daemons
// share one broker and one base topic; board numbers are unique across them, and each board has
// one daemon.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { PublishedChanges } from '../../src/broadcast/index.ts';
import type { GameEvent } from '../../src/game/types.ts';
import type { HubReader } from '../hub.ts';
import {
  type Availability,
  BRIDGE_OFFLINE,
  BRIDGE_ONLINE,
  type DaemonState,
  DEFAULT_BASE_TOPIC,
  type EventMessage,
  type StateMessage,
  topics,
} from './mqtt-topics.ts';
import { PdnCache } from '../views/rounds.ts';
import type { ServerLog } from './ws.ts';

/** The broker and how to log in to it (config key `mqtt`). */
export interface MqttSettings {
  /** `mqtt://host:1883` (mqtts://, ws:// also work: whatever the mqtt package accepts). */
  url: string;
  username?: string;
  password?: string;
  /** PEM files: the CA that signed the broker's certificate, and a client certificate and key. */
  ca?: string;
  cert?: string;
  key?: string;
  clientId?: string;
  /** First level of every topic (default `damlink`). */
  baseTopic?: string;
}

export interface MqttBridgeOptions extends MqttSettings {
  hub: HubReader;
  /** The daemon's HTTP address, announced in its detail (`<base>/bridge/daemons/<id>`). */
  apiUrl?: string;
  /** How long start waits for the broker before going on without it (default 3000 ms). */
  firstConnectMs?: number;
  log?: ServerLog;
}

export interface MqttBridge {
  client: MqttClient;
  /** The second connection, which holds the daemon's detail topic and its own last will. */
  presence: MqttClient;
  /** The client id, which names this daemon on the broker. */
  daemon: string;
  close(): Promise<void>;
}

/** A board another daemon holds: this daemon must not start on it. */
export class BoardHeldError extends Error {
  override readonly name = 'BoardHeldError';
}

const json = (payload: Buffer): unknown => {
  try {
    return JSON.parse(payload.toString());
  } catch {
    return undefined;
  }
};

/**
 * Starts publishing; never fails because the broker is away: the client keeps reconnecting and
 * once connected publishes, in order, the events it missed (the game records keep the recent
 * ones; a board further behind is brought up by its retained state). Fails with BoardHeldError
 * when the broker shows one of this daemon's boards held by another daemon that is online.
 */
export async function startMqttBridge(options: MqttBridgeOptions): Promise<MqttBridge> {
  const { hub } = options;
  const t = topics(options.baseTopic ?? DEFAULT_BASE_TOPIC);
  const daemon = options.clientId ?? `damlink-${randomUUID().slice(0, 8)}`;
  const epoch = randomUUID().slice(0, 8);
  const shownUrl = redactUrl(options.url);
  const offline: DaemonState = { state: 'offline', daemon };
  // `<base>/bridge/state` is shared by the daemons of an event, so each one's will may mark it
  // offline while others live: they put it back (below). It reads offline once the last one is gone.
  const client = connectBroker(options, options.log, {
    queueQoSZero: false,
    clientId: daemon,
    will: { topic: t.bridgeState, payload: Buffer.from(BRIDGE_OFFLINE), qos: 1, retain: true },
  });
  // A connection has one will: the daemon's detail gets its own connection, so a crash marks it too.
  const presence = connectBroker(options, options.log, {
    clientId: `${daemon}-presence`,
    manualConnect: true,
    will: { topic: t.daemon(daemon), payload: Buffer.from(JSON.stringify(offline)), qos: 1, retain: true },
  });
  let presenceStarted = false;
  let closing = false;
  // A board's PDN is made again, and handed to the broker, only when its published game changed:
  // most events are clock readings, which change its state and not its PDN (src/broadcast/changes.ts).
  const changes = new PublishedChanges();
  const pdn = new PdnCache((game) => changes.versionOf(game));
  /** Per board, the PDN handed to the broker on the current connection. */
  const pdnSent = new Map<number, string>();
  /** Per board, the last version handed to the client on the current connection (or acked before). */
  const published = new Map<number, number>();
  const acked = new Map<number, number>();
  /** Whether `published` is known: the broker's retained events were read on a first connection. */
  let synced = false;
  let refused: BoardHeldError | undefined;
  const dirty = new Set<number>();
  let scheduled = false;
  const boardNumbers = () => hub.boards().map((b) => b.board);
  const live = () => client.connected && synced && !refused;
  const send = (topic: string, payload: string, retain: boolean, done?: () => void) =>
    client.publish(topic, payload, { qos: 1, retain }, (err) => {
      if (!err) done?.();
    });

  let announced: DaemonState | undefined;
  /** Publishes the detail on the presence connection; resolves once the broker has it (or cannot). */
  let detailOnBroker: Promise<void> = Promise.resolve();
  const announceDaemon = () => {
    announced = {
      state: 'online',
      daemon,
      epoch,
      round: hub.round(),
      boards: boardNumbers(),
      ...(options.apiUrl ? { api: options.apiUrl } : {}),
    };
    const payload = JSON.stringify(announced);
    if (presence.connected)
      detailOnBroker = new Promise((resolve) =>
        presence.publish(t.daemon(daemon), payload, { qos: 1, retain: true }, () => resolve()),
      );
  };
  presence.on('connect', () => {
    if (!closing) announceDaemon();
  });
  /** The first time: the detail (the address gateways fill gaps from) goes before any event. */
  const startPresence = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, PROBE_WAIT_MS);
      presence.once(
        'connect',
        () =>
          void detailOnBroker.then(() => {
            clearTimeout(timer);
            resolve();
          }),
      );
      presence.connect();
    });

  const publishStates = () => {
    scheduled = false;
    if (live()) {
      const round = hub.round();
      // Gateways serve the round the daemons announce: a round changed at run time is announced.
      if (announced?.round !== round) announceDaemon();
      const sources = new Map(hub.boards().map((b) => [b.board, b.source]));
      for (const board of dirty) {
        const snapshot = hub.snapshot(board);
        if (!snapshot) continue;
        const state: StateMessage = {
          board,
          round,
          epoch,
          version: snapshot.version,
          daemon,
          source: sources.get(board) ?? '',
          snapshot,
        };
        send(t.state(board), JSON.stringify(state), true);
        const text = pdn.of(snapshot);
        if (pdnSent.get(board) !== text) send(t.roundPdn(round, board), text, true);
        pdnSent.set(board, text);
      }
    }
    dirty.clear();
  };
  const markDirty = (board: number) => {
    dirty.add(board);
    if (!scheduled) {
      scheduled = true;
      setImmediate(publishStates);
    }
  };

  /** The board's events after the last one published, in order; a board too far behind skips to its state. */
  const catchUp = (board: number) => {
    const from = published.get(board) ?? 0;
    const missed = hub.since(board, from);
    const round = hub.round();
    if (!missed) {
      options.log?.warn({ board, from }, 'mqtt: events no longer kept, the retained state stands for them');
      const version = hub.snapshot(board)?.version ?? from;
      published.set(board, version);
      acked.set(board, version);
    } else {
      for (const event of missed) {
        const message: EventMessage = { board, round, epoch, version: event.version, daemon, event };
        send(t.events(board), JSON.stringify(message), true, () => {
          if (event.version > (acked.get(board) ?? 0)) acked.set(board, event.version);
        });
        published.set(board, event.version);
      }
    }
    markDirty(board);
  };

  const announce = () => {
    send(t.bridgeState, BRIDGE_ONLINE, true);
    client.subscribe(t.bridgeState, { qos: 1 });
    announceDaemon();
    for (const board of boardNumbers()) {
      const availability: Availability = { state: 'online', daemon };
      send(t.availability(board), JSON.stringify(availability), true);
      catchUp(board);
    }
  };

  const onConnect = async () => {
    options.log?.info({ url: shownUrl, daemon }, 'mqtt connected');
    if (!synced) {
      try {
        const seen = await readRetained(client, t, daemon, boardNumbers());
        refused = heldElsewhere(seen, daemon, boardNumbers());
        if (refused) {
          options.log?.warn({ err: refused.message }, 'mqtt: not publishing');
          return;
        }
        // What the broker already has of this round is not published again (a restart after kill -9).
        for (const [board, message] of seen.events) {
          if (message.round === hub.round()) published.set(board, message.version);
        }
        // A board the broker has nothing of starts from its state: the events before it are in it.
        for (const board of boardNumbers()) {
          if (!published.has(board)) published.set(board, hub.snapshot(board)?.version ?? 0);
          acked.set(board, published.get(board)!);
        }
      } catch (e) {
        options.log?.warn({ err: (e as Error).message }, 'mqtt: reading the retained state failed');
        return;
      }
      if (!presenceStarted) {
        presenceStarted = true;
        await startPresence();
      }
      synced = true;
    }
    if (client.connected) announce();
  };
  client.on('connect', () => void onConnect());
  // Another daemon's will said offline while this one is still here: the bridge is online.
  client.on('message', (topic, payload) => {
    if (topic === t.bridgeState && payload.toString() === BRIDGE_OFFLINE && live() && !closing)
      send(t.bridgeState, BRIDGE_ONLINE, true);
  });
  // What was handed over but not acknowledged is published again from the records, in order.
  client.on('close', () => {
    for (const id of Object.keys(client.outgoing)) client.removeOutgoingMessage(Number(id));
    for (const [board, version] of acked) published.set(board, version);
    // Back on the broker, every board's PDN goes again (a broker restarted may have lost them).
    pdnSent.clear();
  });

  const unsubscribe = hub.subscribe((event: GameEvent) => {
    changes.touches(event, hub.round());
    if (live()) catchUp(event.board);
  });

  // Give the broker a moment so the board check is made before serving; start anyway when it is away.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, options.firstConnectMs ?? 3000);
    const poll = setInterval(() => {
      if (synced || refused) done();
    }, 10);
    function done() {
      clearTimeout(timer);
      clearInterval(poll);
      resolve();
    }
  });
  if (refused) {
    unsubscribe();
    await client.endAsync(true);
    throw refused;
  }

  return {
    client,
    presence,
    daemon,
    async close() {
      unsubscribe();
      if (scheduled) publishStates();
      closing = true;
      if (live()) {
        for (const board of boardNumbers()) {
          const availability: Availability = { state: 'offline', daemon };
          send(t.availability(board), JSON.stringify(availability), true);
        }
        // The other daemons still connected put it back to online.
        send(t.bridgeState, BRIDGE_OFFLINE, true);
      }
      if (presence.connected)
        presence.publish(t.daemon(daemon), JSON.stringify(offline), { qos: 1, retain: true });
      await Promise.all([client.endAsync(), presenceStarted ? presence.endAsync() : undefined]);
    },
  };
}

/** How long a daemon waits for its probe to come back after the retained messages. */
const PROBE_WAIT_MS = 5000;

interface Retained {
  daemons: Map<string, DaemonState>;
  availability: Map<number, Availability>;
  events: Map<number, EventMessage>;
}

/** The retained daemon details, availabilities and last events the broker holds (for `boards`). */
async function readRetained(
  client: MqttClient,
  t: ReturnType<typeof topics>,
  daemon: string,
  boards: readonly number[],
): Promise<Retained> {
  const seen: Retained = { daemons: new Map(), availability: new Map(), events: new Map() };
  const nonce = randomUUID();
  const wanted = [t.daemons, t.probe(daemon), ...boards.flatMap((b) => [t.availability(b), t.events(b)])];
  const arrived = new Promise<void>((resolve) => {
    // A broker that never echoes the probe (an ACL on it) must not keep the daemon from publishing.
    const timer = setTimeout(done, PROBE_WAIT_MS);
    function done() {
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve();
    }
    const onMessage = (topic: string, payload: Buffer) => {
      if (topic === t.probe(daemon)) {
        if (payload.toString() === nonce) done();
        return;
      }
      const value = json(payload) as Record<string, unknown> | undefined;
      if (!value || typeof value !== 'object') return;
      const m = /\/(?:bridge\/daemons\/([^/]+)|boards\/(\d+)\/(availability|events))$/.exec(topic);
      if (!m) return;
      if (m[1]) seen.daemons.set(m[1], value as unknown as DaemonState);
      else if (m[3] === 'availability') seen.availability.set(Number(m[2]), value as unknown as Availability);
      else if (typeof value.version === 'number')
        seen.events.set(Number(m[2]), value as unknown as EventMessage);
    };
    client.on('message', onMessage);
  });
  await client.subscribeAsync(wanted, { qos: 1 });
  // Retained messages come right after the subscription; the probe comes after them.
  await client.publishAsync(t.probe(daemon), nonce, { qos: 1 });
  await arrived;
  await client.unsubscribeAsync(wanted);
  return seen;
}

/** The first of `boards` another online daemon holds, as a refusal. */
function heldElsewhere(
  seen: Retained,
  daemon: string,
  boards: readonly number[],
): BoardHeldError | undefined {
  for (const board of boards) {
    const holder = seen.availability.get(board);
    if (holder?.state !== 'online' || holder.daemon === daemon) continue;
    if (seen.daemons.get(holder.daemon)?.state !== 'online') continue;
    return new BoardHeldError(
      `board ${board} is held by the daemon ${holder.daemon} on the broker: board numbers must be unique across the daemons of an event`,
    );
  }
  return undefined;
}

/** A client of the broker `settings` name, reconnecting every second, its errors logged without secrets. */
export function connectBroker(
  settings: MqttSettings,
  log: ServerLog | undefined,
  extra: IClientOptions,
): MqttClient {
  const client = connect(settings.url, {
    reconnectPeriod: 1000,
    connectTimeout: 5000,
    ...loginOptions(settings),
    ...extra,
  });
  client.on('error', (e) =>
    log?.warn({ err: redactText(e.message, settings), url: redactUrl(settings.url) }, 'mqtt error'),
  );
  return client;
}

/** Credentials and TLS files as the mqtt package takes them (files are read here, at start). */
export function loginOptions(settings: MqttSettings): IClientOptions {
  const file = (path: string | undefined) => (path === undefined ? undefined : readFileSync(path));
  const options: IClientOptions = {};
  if (settings.username !== undefined) options.username = settings.username;
  if (settings.password !== undefined) options.password = settings.password;
  if (settings.clientId !== undefined) options.clientId = settings.clientId;
  if (settings.ca !== undefined) options.ca = file(settings.ca);
  if (settings.cert !== undefined) options.cert = file(settings.cert);
  if (settings.key !== undefined) options.key = file(settings.key);
  return options;
}

/** `mqtt://user:secret@host` → `mqtt://***@host`, wherever a URL stands in the text (logs). */
export function redactUrl(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@');
}

/** An error message with URL credentials and the password taken out. */
export function redactText(text: string, settings: MqttSettings): string {
  const plain = redactUrl(text);
  return settings.password ? plain.split(settings.password).join('***') : plain;
}
