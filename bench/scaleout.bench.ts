// Scale-out: 2 daemons (20 boards each) → one mosquitto → 2 gateways, spectators split across the
// gateways. Prints `gateway_viewers_total` (connected and subscribed, target ≥ 20,000),
// `gateway_fanout_p99_ms` (a move given to the daemon → its frame at the spectator, through the
// broker and a gateway; target ≤ 250 ms on 2 cores) and `broker_outage_catchup_ms` (the broker
// stopped for 60 s of a 40-board round that plays on meanwhile, a move on each board every 3 s,
// then restarted empty: from the broker's start until both gateways show every board's last
// version, the daemons' and gateways' reconnections — 1 s apart at most — included).
// The daemons (their servers and bridges) run here; each gateway and each group of spectators is a child process.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startGateway } from '../daemon/gateway/index.ts';
import type { Hub } from '../daemon/hub.ts';
import { startServer } from '../daemon/server/index.ts';
import { startMqttBridge } from '../daemon/server/mqtt.ts';
import { legalMoves, moveNotation } from '../src/engine/index.ts';
import { type Player, player } from '../test/src/game/fixtures/helpers.ts';
import { FakeHub } from '../test/daemon/fixtures/fake-hub.ts';
import { startBroker } from '../test/daemon/server/fixtures/mosquitto.ts';
import { now, raiseFileLimit, viewerProcess } from './ws-viewer.ts';

const VIEWERS = Number(process.env.SCALE_VIEWERS ?? 20_000);
const VIEWER_CHILDREN = Number(process.env.SCALE_CHILDREN ?? 4);
const BOARDS = 40;
/** How long the broker is away, by the wall clock, while the round plays on. */
const OUTAGE_MS = Number(process.env.SCALE_OUTAGE_MS ?? 60_000);
/** Each board moves this often, the boards taking turns (a hall's pace: 20 plies a board a minute). */
const MOVE_EVERY_MS = 3000;
const FANOUT_MOVES = 8;
const self = fileURLToPath(import.meta.url);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Message =
  | { type: 'ready'; url?: string; connected?: number }
  | { type: 'versions'; versions: Record<number, number> }
  | { type: 'times'; times: Record<number, number[]> };

/** One daemon's half of the boards of a shared FakeHub. */
function hall(hub: FakeHub, boards: ReadonlySet<number>): Hub {
  return {
    boards: () => hub.boards().filter((b) => boards.has(b.board)),
    round: () => hub.round(),
    snapshot: (b) => (boards.has(b) ? hub.snapshot(b) : undefined),
    hasRound: (r) => hub.hasRound(r),
    games: (r) => hub.games(r).filter((g) => boards.has(g.info.board)),
    since: (b, v) => hub.since(b, v),
    subscribe: (listener) => hub.subscribe((e) => boards.has(e.board) && listener(e)),
    decide: (b, d) => hub.decide(b, d),
    setResult: (b, r) => hub.setResult(b, r),
    setInfo: (b, i) => hub.setInfo(b, i),
    act: (b, a) => hub.act(b, a),
    resync: (b) => hub.resync(b),
  };
}

/** The first legal move, so every board can play on for as long as asked. */
function nextMove(p: Player, t: number) {
  const move = legalMoves(p.position)[0];
  return p.move(moveNotation(p.position, move), t);
}

async function gatewayChild(): Promise<void> {
  const gateway = await startGateway({
    mqtt: { url: process.env.SCALE_MQTT!, baseTopic: 'bench' },
    port: 0,
    heartbeatMs: 3_600_000,
    limits: { connections: VIEWERS + 100, connectionsPerAddress: VIEWERS + 100 },
  });
  while (gateway.hub.boards().length < BOARDS) await sleep(20);
  process.send!({ type: 'ready', url: gateway.server.url } satisfies Message);
  process.on('message', (m: { type: string }) => {
    if (m.type !== 'versions') return;
    const versions = Object.fromEntries(gateway.hub.boards().map((b) => [b.board, b.version]));
    process.send!({ type: 'versions', versions } satisfies Message);
  });
}

function ask<T extends Message['type']>(child: ChildProcess, type: T, send?: string) {
  return new Promise<Extract<Message, { type: T }>>((resolve) => {
    const on = (m: Message) => {
      if (m.type === type) {
        child.off('message', on);
        resolve(m as Extract<Message, { type: T }>);
      }
    };
    child.on('message', on);
    if (send) child.send({ type: send });
  });
}

const child = (env: Record<string, string>) =>
  fork(self, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, ...env } });

async function main(): Promise<void> {
  raiseFileLimit(VIEWERS + 2000, self);
  let broker = await startBroker();
  const hub = new FakeHub(BOARDS, 1);
  const halves = [1, 2].map(
    (d) => new Set(Array.from({ length: BOARDS / 2 }, (_, i) => (d - 1) * 20 + i + 1)),
  );
  // Each daemon's own server, for its HTTP address in the bridge state (a gateway's gap filler).
  const daemons = await Promise.all(
    halves.map(async (boards, d) => {
      const own = hall(hub, boards);
      const server = await startServer({ hub: own, port: 0 });
      const bridge = await startMqttBridge({
        hub: own,
        url: broker.url,
        baseTopic: 'bench',
        clientId: `hall-${d}`,
        apiUrl: server.apiUrl,
      });
      return { close: () => bridge.close().then(() => server.close()) };
    }),
  );
  const gateways = [
    child({ SCALE_ROLE: 'gateway', SCALE_MQTT: broker.url }),
    child({ SCALE_ROLE: 'gateway', SCALE_MQTT: broker.url }),
  ];
  const urls = (await Promise.all(gateways.map((g) => ask(g, 'ready')))).map((r) => r.url!);
  const per = Math.ceil(VIEWERS / VIEWER_CHILDREN);
  const viewers = Array.from({ length: VIEWER_CHILDREN }, (_, i) =>
    child({
      SCALE_ROLE: 'viewer',
      SCALE_GATEWAYS: urls.join(','),
      SCALE_COUNT: String(Math.min(per, VIEWERS - i * per)),
    }),
  );
  const connected = (await Promise.all(viewers.map((v) => ask(v, 'ready')))).reduce(
    (n, r) => n + (r.connected ?? 0),
    0,
  );

  // Fan-out: one move at a time on board 1, through a daemon, the broker and both gateways.
  const players = Array.from({ length: BOARDS }, () => player());
  const published: Record<number, number> = {};
  for (let i = 0; i < FANOUT_MOVES; i++) {
    await sleep(400);
    const t0 = now();
    const [event] = hub.feed(1, nextMove(players[0], Math.round(t0)));
    published[event.version] = t0;
  }
  await sleep(1500);

  // The broker away for OUTAGE_MS while every board plays on; restarted empty on the same port.
  const port = broker.port;
  await broker.stop();
  const stopped = performance.now();
  let outageMoves = 0;
  let board1Moves = 0;
  for (let turn = 0; ; turn++) {
    const at = stopped + (turn + 1) * (MOVE_EVERY_MS / BOARDS);
    if (at >= stopped + OUTAGE_MS) break;
    await sleep(at - performance.now());
    const b = (turn % BOARDS) + 1;
    hub.feed(b, nextMove(players[b - 1], Math.round(now())));
    outageMoves++;
    if (b === 1) board1Moves++;
  }
  await sleep(stopped + OUTAGE_MS - performance.now());
  const last = Object.fromEntries(hub.boards().map((b) => [b.board, b.version]));
  const restarted = performance.now();
  broker = await startBroker(port);
  const caughtUp = async (g: ChildProcess) => {
    const { versions } = await ask(g, 'versions', 'versions');
    return Object.entries(last).every(([b, v]) => versions[Number(b)] === v);
  };
  const deadline = performance.now() + 60_000;
  let pending = [...gateways];
  while (pending.length > 0 && performance.now() < deadline) {
    const done = await Promise.all(pending.map(caughtUp));
    pending = pending.filter((_, i) => !done[i]);
    if (pending.length > 0) await sleep(20);
  }
  const catchupMs = performance.now() - restarted;
  await sleep(500);

  const reports = await Promise.all(viewers.map((v) => ask(v, 'times', 'report')));
  const lat: number[] = [];
  const board1Versions = new Set<number>();
  let received = 0;
  for (const r of reports) {
    for (const [v, ts] of Object.entries(r.times)) {
      received += ts.length;
      board1Versions.add(Number(v));
      if (published[Number(v)] !== undefined) for (const t of ts) lat.push(t - published[Number(v)]);
    }
  }
  lat.sort((a, b) => a - b);
  const pct = (q: number) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? Number.NaN;
  const expected = connected * (FANOUT_MOVES + board1Moves);
  console.log(`gateway_viewers_total ${connected} clients`);
  console.log(`gateway_fanout_p50_ms ${pct(0.5).toFixed(1)} ms`);
  console.log(`gateway_fanout_p99_ms ${pct(0.99).toFixed(1)} ms`);
  console.log(`broker_outage_catchup_ms ${pending.length === 0 ? catchupMs.toFixed(0) : 'NaN'} ms`);
  console.log(`broker_outage_s ${(OUTAGE_MS / 1000).toFixed(0)} s`);
  console.log(`broker_outage_events ${outageMoves} moves`);
  console.log(`gateway_moves_lost ${expected - received} frames`);
  for (const c of [...viewers, ...gateways]) c.kill();
  for (const d of daemons) await d.close();
  await broker.stop();
  process.exit(connected === VIEWERS && received === expected && pending.length === 0 ? 0 : 1);
}

if (process.env.SCALE_ROLE === 'gateway') await gatewayChild();
else if (process.env.SCALE_ROLE === 'viewer') {
  const urls = process.env
    .SCALE_GATEWAYS!.split(',')
    .map((u) => new URL(`${u.replace(/^http/, 'ws')}/api/v1`));
  await viewerProcess(urls, Number(process.env.SCALE_COUNT));
} else await main();
