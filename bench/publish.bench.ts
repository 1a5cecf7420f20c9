// Publishing over SFTP on loopback: 16 boards of a round, a move every 150 ms on a random board,
// each published to a real OpenSSH sshd (internal-sftp) started here. Prints
// `publish_after_move_p99_ms` (move applied → the board's file renamed into place on the server
// with that move or a later one; target ≤ 1500 ms) and its p50, with the coalesce window the
// daemon uses by default (250 ms). The uploaded files land on this machine, so the arrival is seen
// with an inotify watch on the server's folder.
import { mkdirSync, readFileSync, watch } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchPublishing } from './publishing.ts';
import { legalMoves, moveNotation } from '../src/engine/index.ts';
import { gameToPdn } from '../src/game/pdn.ts';
import { player, type Player } from '../test/src/game/fixtures/helpers.ts';
import { startSshd } from '../test/integration/fixtures/file-servers.ts';
import { removeTempDirs } from '../test/integration/fixtures/helpers.ts';
import { FakeHub } from '../test/daemon/fixtures/fake-hub.ts';

const BOARDS = 16;
const MOVES = Number(process.env.PUBLISH_MOVES ?? 400);
const GAP_MS = 150;

const print = (name: string, value: string, unit = '') =>
  console.log(`${name} ${value}${unit ? ` ${unit}` : ''}`);
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A deterministic pseudo-random sequence (the bench must replay the same round every run). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ssh = await startSshd();
const hub = new FakeHub(BOARDS, 1, { event: 'Bench Open' });
const publishing = benchPublishing(hub, ssh.target());

const roundDir = join(ssh.root, 'rounds', '1');
mkdirSync(roundDir, { recursive: true });
/** Per board: the PDN bodies the file is still to show, with the time their move was applied. */
const awaited = new Map<number, Array<{ body: string; at: number }>>();
const latencies: number[] = [];
const watcher = watch(roundDir, (_event, name) => {
  const m = /^(\d+)\.pdn$/.exec(String(name));
  const list = m ? awaited.get(Number(m[1])) : undefined;
  if (!list?.length) return;
  let text: string;
  try {
    text = readFileSync(join(roundDir, String(name)), 'utf8');
  } catch {
    return;
  }
  const i = list.findIndex((w) => w.body === text);
  if (i < 0) return;
  const now = performance.now();
  for (const w of list.splice(0, i + 1)) latencies.push(now - w.at);
});

const players: Player[] = Array.from({ length: BOARDS }, () => player());
const random = lcg(7);
let t = 0;
for (let n = 0; n < MOVES; n++) {
  await new Promise((r) => setTimeout(r, GAP_MS));
  const board = 1 + Math.floor(random() * BOARDS);
  const p = players[board - 1];
  const legal = legalMoves(p.position);
  if (legal.length === 0) continue;
  const move = legal[Math.floor(random() * legal.length)];
  hub.feed(board, p.move(moveNotation(p.position, move, legal), ++t * 1000));
  const body = gameToPdn(hub.snapshot(board)!);
  awaited.set(board, [...(awaited.get(board) ?? []), { body, at: performance.now() }]);
}
const end = Date.now() + 10_000;
while ([...awaited.values()].some((l) => l.length > 0) && Date.now() < end) {
  await new Promise((r) => setTimeout(r, 50));
}
const lost = [...awaited.values()].reduce((n, l) => n + l.length, 0);
watcher.close();
await publishing.stop();
await ssh.stop();
removeTempDirs();

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
print('publish_moves', String(latencies.length), 'moves');
if (lost > 0) print('publish_moves_never_seen', String(lost), 'moves');
print('publish_after_move_p50_ms', percentile(latencies, 50).toFixed(0), 'ms');
print('publish_after_move_p99_ms', percentile(latencies, 99).toFixed(0), 'ms');
process.exit(lost > 0 ? 1 : 0);
