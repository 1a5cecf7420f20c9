// Scale-out with real processes: 3 daemons × 10 simulated boards → one mosquitto → 2 gateways,
// with spectators on the gateways. Mid-round a daemon is killed -9 and restarted, the broker is
// stopped for 60 s and restarted (empty: no persistence), and a gateway is killed -9 and
// restarted. Every gateway's games.pdn equals the truth; every spectator saw every move once, in
// order; no event reached the broker twice from the daemon's restart; `<base>/bridge/state` read
// online while any daemon was left, offline once none was.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { GameEvent, GameSnapshot, RecordedMove } from '../../src/game/types.ts';
import { type Broker, connectWithRetry, freePort, startBroker } from '../daemon/server/fixtures/mosquitto.ts';
import {
  cleanBoards,
  cleanUp,
  type Daemon,
  fetchText,
  onCleanup,
  pdnMoves,
  ROOT,
  startDaemon,
  startServing,
  tempDir,
  until,
} from './fixtures/helpers.ts';

afterEach(cleanUp);

const SPEED = 4;
const DAEMONS = 3;
const BOARDS_EACH = 10;
/** The broker's outage, as long as a hall's network may be away. */
const OUTAGE_MS = 60_000;
/** Game time per move: at SPEED the games last about 115 s, past the outage and both crashes. */
const THINK_MS = 7000;
const BASE = 'hall';

type Gateway = Daemon;

async function startGatewayProcess(mqtt: string, port: number, daemons: number[]): Promise<Gateway> {
  const gateway = await startServing([
    'gateway',
    '--mqtt',
    mqtt,
    '--base-topic',
    BASE,
    '--port',
    String(port),
    // The daemons it may ask for events the broker lost: these, and no address a message names.
    ...daemons.flatMap((p) => ['--daemon', `http://127.0.0.1:${p}`]),
  ]);
  onCleanup(() => gateway.stop());
  return gateway;
}

/** A spectator following the round on a gateway, resuming with its versions when it reconnects. */
class Spectator {
  readonly moves = new Map<number, RecordedMove[]>();
  readonly versions = new Map<number, number>();
  /** Events that came twice or out of order. */
  readonly disorder: string[] = [];
  /** Snapshots that came once events had (`board N at V`, and when). */
  readonly snapshotsAfterFirst: string[] = [];
  private epoch: string | undefined;
  private ws: WebSocket | undefined;
  private subscribed = false;

  async connect(url: string): Promise<void> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/v1`);
    this.ws = ws;
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.on('error', () => {});
    ws.on('message', (data) => this.read(JSON.parse(data.toString())));
    const since = Object.fromEntries([...this.versions].map(([b, v]) => [String(b), v]));
    const param = this.epoch ? { feed: 'round', since, epoch: this.epoch } : { feed: 'round' };
    ws.send(JSON.stringify({ id: 1, call: 'subscribe', param }));
  }

  close(): void {
    this.ws?.terminate();
  }

  private read(message: { response: string; param: Record<string, unknown> }): void {
    if (message.response === 'call') {
      this.epoch = message.param.epoch as string;
      return;
    }
    if (message.response !== 'feed') return;
    const item = message.param as GameEvent | { kind: 'snapshot'; board: number; snapshot: GameSnapshot };
    if (item.kind === 'snapshot') {
      if (this.subscribed)
        this.snapshotsAfterFirst.push(
          `board ${item.board} at ${item.snapshot.version} (${new Date().toISOString().slice(11, 23)})`,
        );
      this.moves.set(item.board, [...item.snapshot.moves]);
      this.versions.set(item.board, item.snapshot.version);
      return;
    }
    this.subscribed = true;
    const last = this.versions.get(item.board) ?? 0;
    if (item.version <= last) this.disorder.push(`board ${item.board}: ${item.version} after ${last}`);
    this.versions.set(item.board, item.version);
    const moves = this.moves.get(item.board) ?? [];
    if (item.kind === 'move') moves.push(item.move);
    else if (item.kind === 'takeback') moves.splice(moves.filter((m) => m.ply <= item.ply).length);
    else if (item.kind === 'new-game') moves.splice(0, moves.length, ...item.snapshot.moves);
    this.moves.set(item.board, moves);
  }

  boardMoves(boards: number): string[][] {
    return Array.from({ length: boards }, (_, i) => (this.moves.get(i + 1) ?? []).map((m) => m.pdn));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The retained message of `topic`, as a new subscriber gets it. */
async function retainedText(url: string, topic: string): Promise<string | undefined> {
  const client = await connectWithRetry(url);
  try {
    const got = new Promise<string>((resolve) =>
      client.once('message', (_t, payload) => resolve(payload.toString())),
    );
    await client.subscribeAsync(topic, { qos: 1 });
    return await Promise.race([got, sleep(2000).then(() => undefined)]);
  } finally {
    await client.endAsync();
  }
}

describe('scale-out: daemons → broker → gateways', () => {
  it('serves every game whole through a daemon crash, a broker outage and a gateway crash', async () => {
    let broker: Broker = await startBroker();
    const brokerPort = broker.port;
    onCleanup(() => broker.stop());
    const boards = DAEMONS * BOARDS_EACH;
    const sim = await cleanBoards(boards, { speed: SPEED, seed: 31, maxPlies: 60, thinkMs: THINK_MS });

    // Every event on the broker, by identity (board, round, version).
    const seen = new Map<string, number>();
    const recorder = connect(broker.url, { reconnectPeriod: 200 });
    onCleanup(() => recorder.endAsync(true));
    recorder.on('message', (_topic, payload, packet) => {
      if (packet.retain) return;
      const m = JSON.parse(payload.toString());
      const key = `${m.board}/${m.round}/${m.version}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    });
    recorder.on('connect', () => recorder.subscribe(`${BASE}/boards/+/events`, { qos: 1 }));
    // What `<base>/bridge/state` said, in order.
    const bridgeStates: string[] = [];
    const watcher = connect(broker.url, { reconnectPeriod: 200 });
    onCleanup(() => watcher.endAsync(true));
    watcher.on('message', (_topic, payload) => bridgeStates.push(payload.toString()));
    watcher.on('connect', () => watcher.subscribe(`${BASE}/bridge/state`, { qos: 1 }));

    const daemonArgs = (d: number) => {
      const file = join(tempDir(`scale-cfg-${d}`), 'damlink.json');
      const setups = sim.boards
        .slice(d * BOARDS_EACH, (d + 1) * BOARDS_EACH)
        .map((b, i) => ({ source: b.address, board: d * BOARDS_EACH + i + 1 }));
      writeFileSync(file, JSON.stringify({ boards: setups, mqtt: { url: broker.url, baseTopic: BASE } }));
      return ['--config', file, '--time-scale', String(SPEED), '--port', String(daemonPorts[d])];
    };
    const daemonPorts: number[] = [];
    for (let d = 0; d < DAEMONS; d++) daemonPorts.push(await freePort());
    const dataDirs = Array.from({ length: DAEMONS }, (_, d) => tempDir(`scale-${d}`));
    const args = dataDirs.map((_, d) => daemonArgs(d));
    const daemons: Daemon[] = [];
    for (let d = 0; d < DAEMONS; d++) {
      daemons.push(await startDaemon([], dataDirs[d], args[d]));
      onCleanup(() => daemons[d].stop());
    }
    const ports = [await freePort(), await freePort()];
    const gateways = [
      await startGatewayProcess(broker.url, ports[0], daemonPorts),
      await startGatewayProcess(broker.url, ports[1], daemonPorts),
    ];

    const boardsKnown = async (g: Gateway) =>
      (JSON.parse(await fetchText(`${g.url}/api/v1/boards`)).boards.length === boards) as boolean;
    for (const g of gateways) await until(() => boardsKnown(g), 20_000, 'every board on the gateway');

    // Two spectators on each gateway.
    const spectators = [new Spectator(), new Spectator(), new Spectator(), new Spectator()];
    for (const [i, s] of spectators.entries()) await s.connect(gateways[i % 2].url);
    onCleanup(async () => {
      for (const s of spectators) s.close();
    });

    // A daemon killed -9 mid-round and restarted: it publishes only what the broker lacks.
    await sleep(2000);
    daemons[1].proc.kill('SIGKILL');
    await daemons[1].exited;
    // Its will said offline; the two daemons left put the bridge back to online.
    await until(
      () => bridgeStates.includes('offline') && bridgeStates.at(-1) === 'online',
      10_000,
      'the bridge online again',
    );
    expect(await retainedText(broker.url, `${BASE}/bridge/state`)).toBe('online');
    daemons[1] = await startDaemon([], dataDirs[1], args[1]);

    // The broker stopped mid-round and restarted empty.
    await sleep(2000);
    const beforeOutage = new Map(seen);
    await broker.stop();
    await sleep(OUTAGE_MS);
    broker = await startBroker(brokerPort);

    // A gateway killed -9 and restarted: its spectators resume there, and on the other gateway.
    await sleep(3000);
    await gateways[0].stop('SIGKILL');
    gateways[0] = await startGatewayProcess(broker.url, ports[0], daemonPorts);
    spectators[0].close();
    spectators[2].close();
    await spectators[0].connect(gateways[0].url);
    await spectators[2].connect(gateways[1].url);

    await sim.done;
    const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
    for (const g of gateways) {
      await until(
        async () =>
          JSON.stringify(pdnMoves(await fetchText(`${g.url}/rounds/1/games.pdn`))) === JSON.stringify(truth),
        20_000,
        `${g.url}: games.pdn equal to the truth`,
      ).catch(async (e) => {
        expect(pdnMoves(await fetchText(`${g.url}/rounds/1/games.pdn`))).toEqual(truth);
        throw e;
      });
    }
    // Gateways agree byte for byte, and so do their ETags.
    const heads = await Promise.all(gateways.map((g) => fetch(`${g.url}/rounds/1/games.pdn`)));
    expect(heads[0].headers.get('etag')).toBe(heads[1].headers.get('etag'));
    expect(await fetchText(`${gateways[0].url}/rounds/1/games.pdn`)).toBe(
      await fetchText(`${gateways[1].url}/rounds/1/games.pdn`),
    );

    await until(
      () => spectators.every((s) => JSON.stringify(s.boardMoves(boards)) === JSON.stringify(truth)),
      // Spectators resuming on a restarted gateway catch up at the pace of a loaded machine.
      30_000,
      'spectators to hold every game',
    ).catch((e) => {
      // Which spectator lacks which board, so that a failure here can be told from a slow machine.
      const lacking = spectators.flatMap((s, i) =>
        s
          .boardMoves(boards)
          .flatMap((moves, b) =>
            JSON.stringify(moves) === JSON.stringify(truth[b])
              ? []
              : [
                  `spectator ${i} board ${b + 1}: ${moves.length} of ${truth[b].length} plies, version ${s.versions.get(b + 1)}`,
                ],
          ),
      );
      throw new Error(`${String(e)}\n${lacking.join('\n')}`);
    });
    for (const s of spectators) {
      expect(s.boardMoves(boards)).toEqual(truth);
      expect(s.disorder).toEqual([]);
    }
    // Spectator 1 stayed on the gateway that was never killed: through the broker's outage it got
    // every move as an event, none as a snapshot.
    const gaps = gateways[1]
      .stderr()
      .split('\n')
      .filter((l) => l.includes('events missing'));
    expect(spectators[1].snapshotsAfterFirst, gaps.join('\n')).toEqual([]);
    expect(spectators[3].snapshotsAfterFirst, gaps.join('\n')).toEqual([]);
    // Up to the outage (which starts a new broker), no event identity reached the broker twice,
    // the daemon's kill -9 and restart included.
    const twice = [...beforeOutage].filter(([, n]) => n > 1);
    expect(twice).toEqual([]);
    expect(beforeOutage.size).toBeGreaterThan(boards);

    // The last daemons gone as after a power cut: the bridge reads offline, and stays so.
    for (const d of daemons) await d.stop('SIGKILL');
    await until(() => bridgeStates.at(-1) === 'offline', 10_000, 'the bridge offline');
    await sleep(500);
    expect(await retainedText(broker.url, `${BASE}/bridge/state`)).toBe('offline');
  }, 330_000);

  it('damlink run --mqtt refuses a board number another online daemon holds (exit 1)', async () => {
    const broker = await startBroker();
    onCleanup(() => broker.stop());
    const holderDir = tempDir('held-a');
    const first = await startDaemon(['tcp://127.0.0.1:1'], holderDir, ['--mqtt', broker.url]);
    onCleanup(() => first.stop());
    const refused = spawn(
      process.execPath,
      [
        'bin/damlink.js',
        'run',
        '--board',
        'tcp://127.0.0.1:1',
        '--port',
        '0',
        '--data-dir',
        tempDir('held-b'),
        '--mqtt',
        broker.url,
      ],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    refused.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const code = await new Promise((resolve) => refused.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toMatch(/damlink: board 1 is held by the daemon damlink-\S+ on the broker/);
    // The daemon that holds it, killed -9 (its boards still say online) and restarted on its own
    // data directory, is the same daemon and takes them back.
    await first.stop('SIGKILL');
    const again = await startDaemon(['tcp://127.0.0.1:1'], holderDir, ['--mqtt', broker.url]);
    onCleanup(() => again.stop());
  }, 60_000);
});
