// `npm run bench -- gap`: gaps of N lost plies (N = 1, 2, 4, 8, 12, 20) from seeded self-play games
// (test/src/tracker/fixtures/gap-lines.ts), each dumped to a fresh tracker after a `hello`. Prints `name value
// unit` lines: gap_recovered_ratio_<N> (lines that are the only one of their length, recorded
// exactly with the default budget / such lines; target 1.0), gap_unique_lines_<N> (how many of the
// cases are, proved by a search with 50 times the budget), gap_unproven_<N> (cases that search could
// not settle: left out of the ratio), gap_transposed_<N>, and gap_search_p99_ms / _max_ms (one search
// with the default budget, every case; target ≤ 50). GAP_BENCH_CASES sets the cases per N.
import { loadavg } from 'node:os';
import type { Position } from '../src/engine/index.ts';
import { GAP_NODES, searchGap } from '../src/tracker/gap-search.ts';
import { createTracker } from '../src/tracker/index.ts';
import { gapOf, lineKey, sensedBoard } from '../test/src/tracker/fixtures/gap-lines.ts';

const CASES = Number(process.env.GAP_BENCH_CASES ?? 40);
const PLIES = [1, 2, 4, 8, 12, 20];

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
console.log(`gap_search_budget ${GAP_NODES} nodes`);

/** The tracker's moves after a dump of `to` following a `hello`, from `from`. */
function trackDump(from: Position, to: Position, occupancyOnly: boolean) {
  const tracker = createTracker({ variant: from.variant, start: from, occupancyOnly });
  const squares = from.variant === 'brazilian' ? 32 : 50;
  const senses = occupancyOnly ? 'occupancy' : 'pieces';
  const text = occupancyOnly ? to.toBoardString().replace(/[wbWB]/g, 'o') : to.toBoardString();
  const out = [
    ...tracker.push({ t: 1000, type: 'hello', serial: 'B', protocol: 'damlink-line/1.0', squares, senses }),
    ...tracker.push({ t: 1000, type: 'snapshot', board: text }),
    ...tracker.push({ t: 3000, type: 'tick' }),
  ];
  return out;
}

const times: number[] = [];
for (const plies of PLIES) {
  let unique = 0;
  let recovered = 0;
  let unproven = 0;
  let transposed = 0;
  let cases = 0;
  for (let seed = 1; cases < CASES && seed < CASES * 4; seed++) {
    const gap = gapOf(seed, plies);
    if (!gap) continue;
    cases++;
    const board = sensedBoard(gap.to, gap.occupancyOnly);
    const t0 = performance.now();
    searchGap(gap.from, board);
    times.push(performance.now() - t0);
    const proof = searchGap(gap.from, board, { nodes: GAP_NODES * 50 });
    if (!proof.complete) {
      unproven++;
      continue;
    }
    if (proof.kind !== 'found' || proof.total !== 1 || lineKey(proof.lines[0].line) !== lineKey(gap.line)) {
      if (proof.kind === 'found' && proof.total > 1) transposed++;
      continue;
    }
    unique++;
    const out = trackDump(gap.from, gap.to, gap.occupancyOnly);
    const moves = out.flatMap((o) => (o.type === 'move' ? [o] : []));
    // One ply shown complete is the tracker's ordinary move (not marked); longer lines are the search's.
    const exact =
      lineKey(moves.map((o) => o.move)) === lineKey(gap.line) &&
      (plies === 1 || moves.every((o) => o.recovered)) &&
      !out.some((o) => o.type === 'alert');
    if (exact) recovered++;
  }
  console.log(`gap_cases_${plies} ${cases} cases`);
  console.log(`gap_unique_lines_${plies} ${unique} lines`);
  console.log(`gap_transposed_${plies} ${transposed} cases`);
  console.log(`gap_unproven_${plies} ${unproven} cases`);
  // No proved-unique line among the cases: no ratio to give.
  console.log(`gap_recovered_ratio_${plies} ${unique === 0 ? 'nan' : (recovered / unique).toFixed(3)} ratio`);
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))];
console.log(`gap_search_p50_ms ${pct(0.5).toFixed(1)} ms`);
console.log(`gap_search_p99_ms ${pct(0.99).toFixed(1)} ms`);
console.log(`gap_search_max_ms ${pct(1).toFixed(1)} ms`);
