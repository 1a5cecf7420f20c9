// `npm run bench -- pdn`: `damlink pdn check` on a generated multi-MB file of tournament-like games
// (seeded random legal games of up to 100 plies, seven-tag roster, a clock comment a move), read
// the way the command reads it (chunks, one game at a time, every move replayed). Prints the
// throughput (wall and CPU), how much the resident memory grew while checking, and the heap kept.
import type { Side } from '../firmware-protocol/side.ts';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkFile } from '../daemon/commands/pdn.ts';
import { clockCommand, legalMoves, moveNotation, play, Position, writePdnGame } from '../src/engine/index.ts';

const TARGET_BYTES = Number(process.env.BENCH_PDN_MB ?? 16) * 1e6;

function randomGame(seed: number): string {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  let pos = Position.initial();
  const moves: Array<{ text: string; comment: string }> = [];
  const clock = { white: 5_400_000, black: 5_400_000, running: 'black' as Side | null };
  for (let ply = 0; ply < 100; ply++) {
    const legal = legalMoves(pos);
    if (legal.length === 0) break;
    const m = legal[next() % legal.length];
    clock[pos.turn] -= 20_000 + (next() % 60_000);
    clock.running = pos.turn === 'white' ? 'black' : 'white';
    moves.push({ text: moveNotation(pos, m, legal), comment: clockCommand(clock) });
    pos = play(pos, m);
  }
  const tags = {
    Event: 'Generated championship',
    Site: 'Hall',
    Date: '2026.12.01',
    Round: String(1 + (seed % 11)),
    White: `Player ${seed % 97}`,
    Black: `Player ${(seed * 7) % 89}`,
  };
  return writePdnGame({ tags, moves, result: '*' });
}

const dir = mkdtempSync(join(tmpdir(), 'damlink-bench-pdn-'));
const file = join(dir, 'games.pdn');
const games: string[] = [];
let bytes = 0;
for (let seed = 1; bytes < TARGET_BYTES; seed++) {
  const g = randomGame(seed);
  games.push(g);
  bytes += Buffer.byteLength(g) + 1;
}
writeFileSync(file, games.join('\n'));
games.length = 0;
const size = statSync(file).size;

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
console.log(`pdn_check_file_mb ${(size / 1e6).toFixed(1)} MB`);
// One warm-up pass for the JIT, then the best of three.
checkFile(file, { variant: 'international', variations: false }, () => {});
globalThis.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const runs = [0, 1, 2].map(() => {
  const u = process.cpuUsage();
  const t = performance.now();
  let n = 0;
  const report = checkFile(file, { variant: 'international', variations: false }, () => {
    if (++n % 500 === 0) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  });
  const wall = (performance.now() - t) / 1000;
  const c = process.cpuUsage(u);
  if (report.errors.length > 0) {
    console.error(`pdn check found errors in generated games: ${report.errors[0].message}`);
    process.exit(1);
  }
  return { wall, cpu: (c.user + c.system) / 1e6, report };
});
const best = (k: 'wall' | 'cpu') => Math.min(...runs.map((r) => r[k]));
const { report } = runs[0];
console.log(`pdn_check_games ${report.games} games`);
console.log(`pdn_check_moves ${report.moves} moves`);
console.log(`pdn_check_mb_per_s ${(size / 1e6 / best('wall')).toFixed(2)} MB/s`);
console.log(`pdn_check_mb_per_cpu_s ${(size / 1e6 / best('cpu')).toFixed(2)} MB/s`);
console.log(`pdn_check_moves_per_s ${Math.round(report.moves / best('wall'))} moves/s`);
console.log(`pdn_check_rss_growth_mb ${((rssPeak - rssBefore) / 1e6).toFixed(1)} MB`);
// What the check keeps once done (the report only): near zero whatever the file's size.
globalThis.gc?.();
console.log(`pdn_check_heap_kept_mb ${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1)} MB`);
rmSync(dir, { recursive: true, force: true });
