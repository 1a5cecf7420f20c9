// Security limits under load, against the real server on loopback:
// - `auth_guesses_evaluated_per_min`: one address guessing tokens as fast as the API lets it, over
//   many connections (each dropped after its error limit, then opened again) for a whole minute
//   (SECURITY_AUTH_SECONDS): the guesses actually compared with the token (target ≤ 20).
// - `rss_mb_300_stalled_clients`: 300 clients (in a child process) that subscribe to the round and
//   never read while big events are fanned out: the daemon's peak RSS, beside the budget of unsent
//   bytes and the RSS before (target: growth bounded by the budget, not by 300 × 4 MiB).
// - `live_ping_p99_ms_during_png_flood`: 20 clients, each from its own loopback address, asking for
//   2048-pixel PNGs of positions never asked before, as fast as answers come (SECURITY_FLOOD_SECONDS);
//   a spectator's WebSocket ping round trip meanwhile, p99 (target ≤ 250).
// - `live_ping_p99_ms_during_old_rounds`: a daemon (its own process) on round 11 of a journal whose
//   rounds 1–10 each had 4 boards searching for lost plies when their daemon was killed (nothing
//   kept); from its start, 8 clients ask for past rounds' games.pdn, cycling 1–10, as fast as
//   answers come (503 while a round is rebuilt), for SECURITY_FLOOD_SECONDS; a spectator's ping
//   round trip meanwhile, p99 (target ≤ 250), and when every round was first served.
// - `subscribe_flood_bytes_per_s_per_address`: 200 connections from one address re-subscribing to a
//   ~100 KB round as fast as the call limit lets them, for SECURITY_FLOOD_SECONDS: the bytes that
//   address received per second, and a spectator's ping round trip meanwhile.
// - `games_board_flood_bytes_per_s_per_address`: the same 200 connections asking `games` with a
//   board (one board's whole snapshot, ~100 KB) every 30 ms: the bytes served that address a second,
//   and a spectator's ping round trip meanwhile (target p99 ≤ 250).
import { fork } from 'node:child_process';
import { rmSync } from 'node:fs';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startServer } from '../daemon/server/index.ts';
import { alertOutput } from '../test/daemon/fixtures/alerts.ts';
import { FakeHub } from '../test/daemon/fixtures/fake-hub.ts';
import { stalledSubscriber } from '../test/daemon/server/fixtures/ws-client.ts';
import { startDaemon, tempDir } from '../test/integration/fixtures/helpers.ts';
import { writeSearchingRound } from './journals.ts';
import { percentile, print } from './lines.ts';
import { pingsDuring } from './pings.ts';

const AUTH_SECONDS = Number(process.env.SECURITY_AUTH_SECONDS ?? 60);
const STALLED = Number(process.env.SECURITY_STALLED ?? 300);
const BUDGET_MB = Number(process.env.SECURITY_BUDGET_MB ?? 64);
const FLOOD_SECONDS = Number(process.env.SECURITY_FLOOD_SECONDS ?? 10);
const FLOODERS = 20;
const self = fileURLToPath(import.meta.url);
const silent = { info() {}, warn() {}, debug() {} };

async function guessing(): Promise<void> {
  const server = await startServer({
    hub: new FakeHub(1),
    port: 0,
    tokens: { admin: 'a'.repeat(32) },
    log: silent,
  });
  let attempted = 0;
  let evaluated = 0;
  let refused = 0;
  const end = Date.now() + AUTH_SECONDS * 1000;
  /** One attacking connection: guesses until the server closes it, as fast as answers come. */
  const attack = () =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(server.wsUrl);
      let id = 0;
      const next = () => {
        if (Date.now() >= end) return ws.close();
        attempted++;
        ws.send(
          JSON.stringify({ id: ++id, call: 'auth', param: { token: `guess-${attempted}-0123456789` } }),
        );
      };
      ws.on('open', next);
      ws.on('message', (data) => {
        const code = JSON.parse(data.toString()).param?.code;
        if (code === 'unauthorized') evaluated++;
        else if (code === 'rate-limited') refused++;
        // Stay under the per-connection call rate: the limit measured is the per-address one.
        setTimeout(next, 25);
      });
      ws.on('error', () => {});
      ws.on('close', () => resolve());
    });
  const attackers = Array.from({ length: 8 }, async () => {
    while (Date.now() < end) await attack();
  });
  await Promise.all(attackers);
  await server.close();
  const perMin = (n: number) => ((n / AUTH_SECONDS) * 60).toFixed(1);
  console.log(`auth_guesses_attempted_per_min ${perMin(attempted)} guesses`);
  console.log(`auth_guesses_refused_per_min ${perMin(refused)} guesses`);
  console.log(`auth_guesses_evaluated_per_min ${perMin(evaluated)} guesses`);
}

const rssMb = () => {
  global.gc?.();
  return process.memoryUsage().rss / 1024 / 1024;
};

async function stalledClients(): Promise<void> {
  const hub = new FakeHub(4);
  const server = await startServer({
    hub,
    port: 0,
    log: silent,
    heartbeatMs: 3_600_000,
    // All from loopback: one address, so its limit is raised to let the 300 in.
    limits: { unsentBudget: BUDGET_MB * 1024 * 1024, connectionsPerAddress: STALLED + 10 },
  });
  // The clients live in another process: what their sockets hold is not the daemon's memory.
  const child = fork(self, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, SECURITY_ROLE: 'stalled', SECURITY_PORT: String(server.port) },
  });
  await new Promise((resolve) => child.once('message', resolve));
  while (server.clients() < STALLED) await new Promise((r) => setTimeout(r, 10));
  const before = rssMb();
  // 16 KiB events, 19 MB offered to each stalled client: past what the kernel's socket buffers take,
  // 4 MiB each would be 1.2 GB held (SECURITY_BUDGET_MB=100000 shows it).
  const message = 'x'.repeat(16 * 1024);
  let peak = before;
  for (let n = 1; n <= 1200 && server.clients() > 0; n++) {
    hub.feed((n % 4) + 1, alertOutput(n, `a${n}`, message));
    if (n % 20 === 0) {
      await new Promise((r) => setImmediate(r));
      peak = Math.max(peak, process.memoryUsage().rss / 1024 / 1024);
    }
  }
  await new Promise((r) => setTimeout(r, 200));
  const after = rssMb();
  console.log(`unsent_budget_mb ${BUDGET_MB} MB`);
  console.log(`rss_mb_before_stalled_fanout ${before.toFixed(1)} MB`);
  // The peak counts garbage not yet collected (written frames, cut clients' buffers) too.
  console.log(`rss_mb_300_stalled_clients ${Math.max(peak, after).toFixed(1)} MB`);
  console.log(`rss_mb_300_stalled_clients_after_gc ${after.toFixed(1)} MB`);
  console.log(`stalled_clients_dropped ${STALLED - server.clients()} clients`);
  child.kill();
  await server.close();
}

/** Children of this file that flood the server; resolves with their counts when they are done. */
function flood(role: string, port: number): Promise<Record<string, number>> {
  const child = fork(self, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, SECURITY_ROLE: role, SECURITY_PORT: String(port) },
  });
  return new Promise((resolve) => child.once('message', (m) => resolve(m as Record<string, number>)));
}

/** A server of `hub` flooded by the children of `role`, a spectator pinging it meanwhile. */
async function flooded(
  hub: FakeHub,
  role: string,
): Promise<{ counts: Record<string, number>; trips: number[] }> {
  const server = await startServer({ hub, port: 0, log: silent });
  let counts: Record<string, number> = {};
  const trips = await pingsDuring(server.wsUrl, async () => {
    counts = await flood(role, server.port);
  });
  await server.close();
  return { counts, trips };
}

async function pngFlood(): Promise<void> {
  const { counts, trips } = await flooded(new FakeHub(4), 'png');
  print('png_flood_rendered', counts.rendered ?? 0, 'pictures');
  print('png_flood_refused_busy', counts.busy ?? 0, 'requests');
  print('live_ping_p50_ms_during_png_flood', percentile(trips, 50).toFixed(1), 'ms');
  print('live_ping_p99_ms_during_png_flood', percentile(trips, 99).toFixed(1), 'ms');
}

/** 16 boards of 20 alerts of 300 bytes each: a round of ~100 KB, a board of ~6 KB. */
function alertedHub(): FakeHub {
  const hub = new FakeHub(16);
  const message = 'x'.repeat(300);
  for (let board = 1; board <= 16; board++)
    for (let n = 0; n < 20; n++) hub.feed(board, alertOutput(n, `a${board}-${n}`, message));
  return hub;
}

/** One address flooding `role` (subscribe, games-board): what it was refused and sent, the ping meanwhile. */
async function callFlood(role: 'subscribe' | 'games-board', name: string): Promise<Record<string, number>> {
  const { counts, trips } = await flooded(alertedHub(), role);
  print(`${name}_refused`, counts.refused ?? 0, 'calls');
  print(`${name}_bytes_per_s_per_address`, Math.round((counts.bytes ?? 0) / FLOOD_SECONDS), 'bytes/s');
  print(`live_ping_p99_ms_during_${name}`, percentile(trips, 99).toFixed(1), 'ms');
  return counts;
}

const gamesBoardFlood = () => callFlood('games-board', 'games_board_flood');

async function subscribeFlood(): Promise<void> {
  const counts = await callFlood('subscribe', 'subscribe_flood');
  print('subscribe_flood_round_bytes', counts.roundBytes ?? 0, 'bytes');
}

async function oldRounds(): Promise<void> {
  const dir = tempDir('bench-old-rounds');
  for (let round = 1; round <= 10; round++) writeSearchingRound(dir, round, 4, 2000);
  const daemon = await startDaemon(['tcp://127.0.0.1:1'], dir, ['--round', '11']);
  const started = performance.now();
  const served = new Map<number, number>();
  let answers = 0;
  let busy = 0;
  const end = Date.now() + FLOOD_SECONDS * 1000;
  const trips = await pingsDuring(`${daemon.url.replace('http', 'ws')}/api/v1`, async () => {
    await Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        for (let n = client; Date.now() < end; n++) {
          const round = (n % 10) + 1;
          const res = await fetch(`${daemon.url}/rounds/${round}/games.pdn`);
          await res.arrayBuffer();
          answers++;
          if (res.status === 503) busy++;
          else if (res.status === 200 && !served.has(round)) served.set(round, performance.now() - started);
        }
      }),
    );
  });
  await daemon.stop();
  rmSync(dir, { recursive: true, force: true });
  print('old_rounds_answers', answers, 'requests');
  print('old_rounds_busy', busy, 'requests');
  print(
    'old_rounds_all_served_ms',
    served.size === 10 ? Math.max(...served.values()).toFixed(0) : 'NaN',
    'ms',
  );
  print('live_ping_p99_ms_during_old_rounds', percentile(trips, 99).toFixed(1), 'ms');
  print('live_ping_max_ms_during_old_rounds', Math.max(...trips).toFixed(1), 'ms');
}

/**
 * 200 connections from 127.0.0.2, each re-subscribing to the round every 25 ms, or (`games`) asking
 * one board's snapshot every 30 ms.
 */
async function subscribeFlooders(port: number, games = false): Promise<Record<string, number>> {
  const counts = { bytes: 0, refused: 0, roundBytes: 0 };
  const end = Date.now() + FLOOD_SECONDS * 1000;
  const connection = () =>
    new Promise<void>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1`, { localAddress: '127.0.0.2' });
      let id = 0;
      let timer: NodeJS.Timeout | undefined;
      const next = () => {
        if (Date.now() >= end) return ws.close();
        ws.send(
          JSON.stringify(
            games
              ? { id: ++id, call: 'games', param: { board: 1 } }
              : { id: ++id, call: 'subscribe', param: { feed: 'round', id: 'same' } },
          ),
        );
        timer = setTimeout(next, games ? 30 : 25);
      };
      ws.on('open', next);
      ws.on('message', (data: Buffer) => {
        counts.bytes += data.length;
        const m = JSON.parse(data.toString());
        if (m.response === 'error') counts.refused++;
      });
      ws.on('error', () => {});
      ws.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  // One subscription alone first: the size of the round it is sent.
  const before = counts.bytes;
  await new Promise<void>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1`, { localAddress: '127.0.0.3' });
    ws.on('open', () => ws.send(JSON.stringify({ id: 1, call: 'subscribe', param: { feed: 'round' } })));
    ws.on('message', (data: Buffer) => {
      counts.roundBytes += data.length;
      if (JSON.parse(data.toString()).param?.board === 16) ws.close();
    });
    ws.on('close', () => resolve());
  });
  counts.bytes = before;
  await Promise.all(
    Array.from({ length: 200 }, async () => {
      while (Date.now() < end) await connection();
    }),
  );
  return counts;
}

/** 20 clients from 127.0.0.2…21, each asking for new 2048-pixel PNGs one after the other. */
async function pngFlooders(port: number): Promise<Record<string, number>> {
  const counts = { rendered: 0, busy: 0 };
  const end = Date.now() + FLOOD_SECONDS * 1000;
  let n = 0;
  const one = (client: number) =>
    new Promise<void>((resolve) => {
      const fen = encodeURIComponent(
        `W:W${31 + (n % 20)},${50 - (Math.floor(n / 20) % 15)}:B${1 + (n % 19)}`,
      );
      n++;
      const req = get(
        {
          host: '127.0.0.1',
          port,
          localAddress: `127.0.0.${2 + client}`,
          path: `/position.png?fen=${fen}&size=${2048 - (n % 500)}`,
        },
        (res) => {
          if (res.statusCode === 200) counts.rendered++;
          else if (res.statusCode === 503) counts.busy++;
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => resolve());
    });
  await Promise.all(
    Array.from({ length: FLOODERS }, async (_, client) => {
      while (Date.now() < end) await one(client);
    }),
  );
  return counts;
}

const role = process.env.SECURITY_ROLE;
if (role === 'png' || role === 'subscribe' || role === 'games-board') {
  const port = Number(process.env.SECURITY_PORT);
  process.send!(await (role === 'png' ? pngFlooders(port) : subscribeFlooders(port, role === 'games-board')));
  process.disconnect();
} else if (role === 'stalled') {
  for (let i = 0; i < STALLED; i++)
    await stalledSubscriber(Number(process.env.SECURITY_PORT), { feed: 'round' });
  process.send!('ready');
  // Paused sockets do not keep a process alive; a listener on the channel does, until the parent goes.
  process.on('message', () => {});
  process.on('disconnect', () => process.exit(0));
} else {
  const part = process.env.SECURITY_PART;
  if (part === undefined || part === 'auth') await guessing();
  if (part === undefined || part === 'memory') await stalledClients();
  if (part === undefined || part === 'png') await pngFlood();
  if (part === undefined || part === 'subscribe') await subscribeFlood();
  if (part === undefined || part === 'games-board') await gamesBoardFlood();
  if (part === undefined || part === 'old-rounds') await oldRounds();
}
