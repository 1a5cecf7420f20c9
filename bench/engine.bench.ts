// `npm run bench -- engine`: perft(9) of the initial position on bitboards (target: as many leaves a
// second as Scan 3.1's generator counted alike, docs/performance.md), and legal-move generation
// (the public legalMoves, with paths and capture order) on a fixed set of middle-game positions.
// Prints `name value unit` lines.
// Both wall-clock and CPU-time figures are printed: the machine's two cores are shared, and under
// load the wall clock measures the other processes as much as this one.
import { loadavg } from 'node:os';
import { legalMoves, parseFen, Position, type Position as Pos } from '../src/engine/index.ts';
import { perft } from '../src/engine/perft.ts';

const PERFT9 = 41_022_423;

function timed<T>(f: () => T): { value: T; wall: number; cpu: number } {
  const u = process.cpuUsage();
  const t = performance.now();
  const value = f();
  const wall = (performance.now() - t) / 1000;
  const c = process.cpuUsage(u);
  return { value, wall, cpu: (c.user + c.system) / 1e6 };
}

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);

// Warm the JIT on a smaller tree first, then take the best of three runs.
perft(Position.initial(), 7);
const runs = [0, 1, 2].map(() => timed(() => perft(Position.initial(), 9)));
for (const r of runs) {
  if (r.value !== PERFT9) {
    console.error(`perft(9) = ${r.value}, expected ${PERFT9}`);
    process.exit(1);
  }
}
const bestWall = Math.min(...runs.map((r) => r.wall));
const bestCpu = Math.min(...runs.map((r) => r.cpu));
console.log(`perft9_initial_nodes ${PERFT9} leaves`);
console.log(`perft9_initial_seconds ${bestWall.toFixed(3)} s`);
console.log(`perft9_initial_leaves_per_s ${Math.round(PERFT9 / bestWall)} leaves/s`);
console.log(`perft9_initial_cpu_seconds ${bestCpu.toFixed(3)} s`);
console.log(`perft9_initial_leaves_per_cpu_s ${Math.round(PERFT9 / bestCpu)} leaves/s`);

if (process.env.PERFT10) {
  const r = timed(() => perft(Position.initial(), 10));
  console.log(`perft10_initial_nodes ${r.value} leaves`);
  console.log(`perft10_initial_seconds ${r.wall.toFixed(3)} s`);
  console.log(`perft10_initial_leaves_per_s ${Math.round(r.value / r.wall)} leaves/s`);
}

// Middle-game positions from seeded random games (quiet, capture and king positions), and the
// article positions with long captures.
const FENS = [
  'B:W23,31,38,42,43,44,45,46,48,49,50:B3,4,5,6,8,9,10,13,15,20',
  'W:W16,23,26,34,37,39,41,42,43,44,45,46,47,49,50:B1,2,3,4,7,8,9,10,13,15,17,25,30,31',
  'B:W13,33,34,35,40,41,44,45,46,47,48,50:B1,2,4,5,6,7,8,10,11,16,20',
  'W:W28,33,37,40,41,44,45,46,47,49,50:B1,2,3,5,7,8,9,10,12,14,20,24',
  'W:W24,25,36,38,39,41,42,45,46:B3,5,9,10,11,12,13,15,17,18,21,22,26',
  'B:W23,30,31,34,35,37,38,39,40,41,42,44,49,50:B2,3,4,8,10,14,15,16,17,22,25',
  'B:W31,35,38,39,40,42,43,45,46,47,48,49,50:B1,2,3,5,6,7,8,9,10,11,13,15,19,25,36',
  'W:W29,32,36,38,40,41,43,44,46,48,49,50:B1,2,3,4,5,7,10,11,16,17,19,20,26,35',
  'B:W8,27,28,32,35,36,38,41,43,44,45,46,47,48,49,50:B1,2,3,4,6,7,9,10,11,13,18,19,24,30',
  'B:W31,34,39,42,43,44,45,46,50:B1,3,4,5,6,9,10,13,14,15,16,K23,25',
  'W:W27,31,33,41,42,44,46,47,49,50:B2,3,5,6,8,9,12,13,14,24',
  'W:W30,34,35,36,38,41,45,46,47,49:B1,4,5,6,8,9,11,12,13,14,19,20,37',
  'W:W47:B13,14,22,24,31,34,K41,44',
  'W:WK1:B7,9,17,19,20,30,31,33,43,44',
  'W:WK21:B10,12,13,14,18,23,29,32,38',
];
const positions: Pos[] = FENS.map((f) => {
  const r = parseFen(f);
  if (!r.ok) throw new Error(`${f}: ${r.error.message}`);
  return r.value;
});

function generate(rounds: number): number {
  let n = 0;
  for (let i = 0; i < rounds; i++) for (const p of positions) n += legalMoves(p).length;
  return n;
}
generate(2000);
let rounds = 2000;
let m = timed(() => generate(rounds));
while (m.wall < 1) {
  rounds *= 2;
  m = timed(() => generate(rounds));
}
console.log(`moves_positions ${positions.length} positions`);
console.log(`moves_per_s ${Math.round(m.value / m.wall)} moves/s`);
console.log(`moves_per_cpu_s ${Math.round(m.value / m.cpu)} moves/s`);
console.log(`movegen_positions_per_s ${Math.round((rounds * positions.length) / m.wall)} positions/s`);
