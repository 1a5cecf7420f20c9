// Attacks through what damlink connects to rather than through its server (SECURITY_PART picks one):
// - `history`: a tcp:// bridge to a history board (line protocol 1.13) that, after a reconnect,
//   answers `history` with HISTORY_CHANGES changes spread plausibly over the board's hour, then
//   drops and comes back with the same question answered again. A real daemon (its own process):
//   a spectator's ping round trip while it takes the answer in (`history_answer_ping_p99_ms`,
//   target ≤ 250, pings never answered beside it) and the journal's growth per answer (the same
//   answer again adds nothing).
// - `gateway-memory`: a publisher on the broker sends 1,200 valid-looking events of ~1 MB for one
//   board; a gateway (this process, a real mosquitto) holds them: its RSS growth (target: bounded by
//   `limits.gatewayBoardBytes`, not by 1,200 MB).
// - `fake-daemon`: a publisher names a daemon of its own on the broker and floods the board's states
//   with gaps for 5 s; the fake daemon answers every catch-up with a flood of poisoned events. The
//   connections the gateway made to it (target 0: the config names no daemon), the poisoned events
//   its spectators could read (target 0), and its RSS growth.
// BRIDGES_DEBUG=1 prints the daemon's info log; BRIDGES_PROFILE=DIR writes its CPU profile there.
import { fork } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { frameLine } from '../firmware-protocol/index.ts';
import { startGateway } from '../daemon/gateway/index.ts';
import { alertOutput } from '../test/daemon/fixtures/alerts.ts';
import { FakeHub } from '../test/daemon/fixtures/fake-hub.ts';
import { eventMessage, stateMessage } from '../test/daemon/gateway/fixtures/messages.ts';
import { connectWithRetry, startBroker } from '../test/daemon/server/fixtures/mosquitto.ts';
import { startDaemon, tempDir, until } from '../test/integration/fixtures/helpers.ts';
import { percentile, print } from './lines.ts';
import { pingsDuring } from './pings.ts';

const HISTORY_CHANGES = Number(process.env.HISTORY_CHANGES ?? 60_000);
const self = fileURLToPath(import.meta.url);
const silent = { info() {}, warn() {}, debug() {} };
const START = 'bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww';
/** After 32-28: what the board shows once every recalled change (a piece lifted and put back) is in. */
const AFTER = [...START].map((c, i) => (i === 27 ? 'w' : i === 31 ? '.' : c)).join('');
const mb = (bytes: number) => bytes / (1024 * 1024);

const dirBytes = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);

async function history(): Promise<void> {
  // The board: change 1–3 live (32-28 pressed), then, asked `history 3` after a reconnect, the
  // changes 4… (19 lifted and put back, 60 ms apart of the board's time), and it drops again.
  let seq = 0;
  const last = 3 + HISTORY_CHANGES;
  /** The answer, numbered on from the link's sequence (a line out of sequence reads as one lost). */
  const answer = (): string => {
    const lines: string[] = [];
    for (let n = 4; n <= last; n++) {
      const ms = 60_400 + (n - 3) * 60;
      lines.push(frameLine(`rec ${seq++ % 256} ${n} ${ms} ${n % 2 === 0 ? 'lift 19' : 'put 19 b'}`));
    }
    return lines.join('');
  };
  const endMs = 60_400 + HISTORY_CHANGES * 60 + 100;
  let connections = 0;
  let answersSent = 0;
  const sockets = new Set<Socket>();
  const board = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const first = ++connections === 1;
    const say = (body: string) => socket.write(frameLine(body.replace('SEQ', String(seq++ % 256))));
    say('hello SEQ 1.1 serial=ROGUE-H squares=50 senses=pieces caps=history boot=b1');
    socket.on('data', (bytes) => {
      for (const framed of bytes.toString().split('\n')) {
        const line = framed.replace(/\*[0-9A-F]{4}$/, '');
        if (line.startsWith('history ')) {
          const after = Number(line.split(' ')[1]);
          if (after < last) {
            answersSent++;
            socket.write(answer());
          }
          say(`recs SEQ done ${last} ${endMs}`);
        } else if (line.startsWith('dump')) say(`snap SEQ ${first ? START : AFTER}`);
        else if (line.startsWith('ping')) say('pong SEQ');
      }
    });
    if (first)
      setTimeout(() => {
        say('lift SEQ 32 1 60000');
        say('put SEQ 28 w 2 60200');
        say('press SEQ w 3 60400');
        setTimeout(() => socket.destroy(), 1500);
      }, 1000);
  });
  await new Promise<void>((r) => board.listen(0, '127.0.0.1', () => r()));
  const port = (board.address() as { port: number }).port;
  const dir = tempDir('bench-history');
  const daemon = await startDaemon(
    [`tcp://127.0.0.1:${port}`],
    dir,
    process.env.BRIDGES_DEBUG ? ['--log-level', 'info'] : [],
    process.env.BRIDGES_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BRIDGES_PROFILE}`] : [],
  );
  const ws = `${daemon.url.replace('http', 'ws')}/api/v1`;
  await until(() => (connections >= 2 ? true : undefined), 20_000, 'the board back');
  const journal = () => dirBytes(dir);
  const before = journal();
  const trips = await pingsDuring(ws, async () => {
    await until(() => (answersSent >= 1 ? true : undefined), 20_000, 'the history answered');
    await new Promise((r) => setTimeout(r, 10_000));
  });
  const afterFirst = journal();
  // The board drops and comes back: the same question, nothing new to answer.
  for (const s of sockets) s.destroy();
  await until(() => (connections >= 3 ? true : undefined), 20_000, 'the board back again');
  await new Promise((r) => setTimeout(r, 5000));
  const afterSecond = journal();
  if (process.env.BRIDGES_DEBUG) console.log(daemon.stderr());
  await daemon.stop();
  board.close();
  rmSync(dir, { recursive: true, force: true });
  print('history_answer_changes', HISTORY_CHANGES, 'changes');
  print('history_answer_ping_p99_ms', percentile(trips, 99).toFixed(1), 'ms');
  print('history_answer_ping_max_ms', Math.max(...trips).toFixed(1), 'ms');
  print('history_answer_pings_unanswered', (trips.sent ?? trips.length) - trips.length, 'pings');
  print('history_answer_journal_growth_mb', mb(afterFirst - before).toFixed(1), 'MB');
  print('history_same_answer_journal_growth_mb', mb(afterSecond - afterFirst).toFixed(1), 'MB');
}

/** A publisher in a child process: its own memory stays out of the gateway's. */
function publisher(role: string, url: string, extra: Record<string, string> = {}): Promise<void> {
  const child = fork(self, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BRIDGES_ROLE: role, BRIDGES_BROKER: url, ...extra },
  });
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** RSS sampled every 50 ms while `during` runs: the peak, in MB. */
async function peakRss(during: () => Promise<void>): Promise<number> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  await during();
  clearInterval(timer);
  return mb(Math.max(peak, process.memoryUsage().rss));
}

async function gatewayMemory(): Promise<void> {
  const broker = await startBroker();
  const gateway = await startGateway({ mqtt: { url: broker.url }, port: 0, log: silent });
  global.gc?.();
  const before = mb(process.memoryUsage().rss);
  const peak = await peakRss(() => publisher('padded', broker.url));
  // What the gateway keeps once the flood is over.
  await new Promise((r) => setTimeout(r, 1000));
  global.gc?.();
  const kept = process.memoryUsage();
  await gateway.close();
  await broker.stop();
  print('gateway_rss_mb_before_padded_events', before.toFixed(1), 'MB');
  print('gateway_rss_mb_peak_1200_padded_events', peak.toFixed(1), 'MB');
  print('gateway_rss_mb_after_padded_events_gc', mb(kept.rss).toFixed(1), 'MB');
  // What is still held (the RSS keeps pages the heap gave back).
  print('gateway_heap_mb_after_padded_events_gc', mb(kept.heapUsed + kept.external).toFixed(1), 'MB');
}

async function fakeDaemon(): Promise<void> {
  let connections = 0;
  const fake = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => fake.once('listening', r));
  const pad = 'x'.repeat(100_000);
  fake.on('connection', (ws) => {
    connections++;
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.call !== 'subscribe') return;
      for (let v = 2; v < 500; v++)
        ws.send(
          JSON.stringify({
            response: 'feed',
            id: m.id,
            param: { board: 777, version: v, t: 1, kind: 'pwned', html: '<img src=x onerror=alert(1)>', pad },
          }),
        );
    });
  });
  const api = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  const broker = await startBroker();
  const gateway = await startGateway({ mqtt: { url: broker.url }, port: 0, log: silent });
  global.gc?.();
  const before = mb(process.memoryUsage().rss);
  const peak = await peakRss(() => publisher('gaps', broker.url, { BRIDGES_API: api }));
  const poisoned = [gateway.hub.snapshot(777), ...(gateway.hub.since(1, 0) ?? [])].filter((e) =>
    JSON.stringify(e ?? null).includes('pwned'),
  ).length;
  await gateway.close();
  await broker.stop();
  fake.close();
  print('fake_daemon_connections', connections, 'connections');
  print('fake_daemon_poisoned_events_served', poisoned, 'events');
  print('gateway_rss_mb_growth_fake_daemon_flood', (peak - before).toFixed(1), 'MB');
}

/** 1,200 events of ~1 MB for board 1 (alerts with a padded message), as fast as the broker takes them. */
async function padded(url: string): Promise<void> {
  const client = await connectWithRetry(url);
  const daemon = new FakeHub(1, 1);
  for (let i = 0; i < 1200; i++) {
    const [event] = daemon.feed(1, alertOutput(i, `a${i}`, 'x'.repeat(1_000_000)));
    await client.publishAsync('damlink/boards/1/events', JSON.stringify(eventMessage(1, event)));
  }
  await client.endAsync();
}

/** A daemon of the publisher's own named on the broker, and 5 s of states that each skip an event. */
async function gaps(url: string, api: string): Promise<void> {
  const client = await connectWithRetry(url);
  await client.publishAsync(
    'damlink/bridge/daemons/hall-x',
    JSON.stringify({ state: 'online', daemon: 'hall-x', round: 1, boards: [1], api }),
    { retain: true, qos: 1 },
  );
  const daemon = new FakeHub(1, 1);
  const end = Date.now() + 5000;
  // Each state a clock reading on: the event that made it never published, a gap every time.
  for (let i = 1; Date.now() < end; i++) {
    daemon.clock(1, 3_600_000 - i, 3_600_000, 'white');
    await client.publishAsync('damlink/boards/1/state', JSON.stringify(stateMessage(daemon, 1)));
    await new Promise((r) => setTimeout(r, 5));
  }
  await client.endAsync();
}

const role = process.env.BRIDGES_ROLE;
if (role === 'padded') await padded(process.env.BRIDGES_BROKER!);
else if (role === 'gaps') await gaps(process.env.BRIDGES_BROKER!, process.env.BRIDGES_API!);
else {
  const part = process.env.SECURITY_PART;
  if (part === undefined || part === 'history') await history();
  if (part === undefined || part === 'gateway-memory') await gatewayMemory();
  if (part === undefined || part === 'fake-daemon') await fakeDaemon();
}
