// `npm run bench -- gap`: gaps of N lost plies (N = 1, 2, 4, 8, 12, 20) from seeded self-play games
// (test/src/tracker/fixtures/gap-lines.ts), each dumped to a fresh tracker after a `hello`. The
// ground truth is the enumeration of every line (test/src/tracker/fixtures/gap-reference.ts, which
// shares no bound with the search), cached in test/src/tracker/fixtures/gap-truth.json: it takes
// up to seconds a case from 12 plies on. Cases are taken game after game until GAP_BENCH_UNIQUE (20)
// of them have one line only, or the enumeration failed to settle GAP_BENCH_UNSETTLED (10) cases
// within GAP_REFERENCE_NODES (2,000,000) positions, or GAP_BENCH_GAMES (150) games were tried.
// Prints `name value unit` lines: gap_recovered_ratio_<N> (unique lines the tracker records exactly,
// each move `recovered`, no alert / unique lines; target 1.0), gap_unique_lines_<N>,
// gap_transposed_<N> (several lines) with gap_transposed_alerted_<N> (of those, the tracker raised
// a `gap` alert listing them), gap_shorter_<N> (a shorter line reaches the board, or one with the
// next move under way: a piece in the hand, a capture's pieces still on), gap_unsettled_<N>
// (the enumeration ran out: left out), and gap_search_p50/p99/max_ms (one search with the default
// budget, every case; target p99 ≤ 50).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Position } from '../src/engine/index.ts';
import { GAP_NODES, SHORT_PLIES, searchGap } from '../src/tracker/gap-search.ts';
import { createTracker } from '../src/tracker/index.ts';
import { gapOf, lineKey, sensedBoard } from '../test/src/tracker/fixtures/gap-lines.ts';
import { referenceLines, referenceUnderWay } from '../test/src/tracker/fixtures/gap-reference.ts';

const WANT = Number(process.env.GAP_BENCH_UNIQUE ?? 20);
const UNSETTLED = Number(process.env.GAP_BENCH_UNSETTLED ?? 10);
const GAMES = Number(process.env.GAP_BENCH_GAMES ?? 150);
const REFERENCE_NODES = Number(process.env.GAP_REFERENCE_NODES ?? 2_000_000);
const PLIES = [1, 2, 4, 8, 12, 20];
const TRUTH_FILE = new URL('../test/src/tracker/fixtures/gap-truth.json', import.meta.url);

interface Truth {
  /** Fewest plies of a line to the board (absent: none, or not settled). */
  plies?: number;
  /** Lines of that length, counted up to 2. */
  count: number;
  complete: boolean;
  /** The enumeration's node limit when it ran. */
  budget: number;
  /** Fewest plies after which the board shows a move under way (-1: none within SHORT_PLIES − 1). */
  underWay?: number;
}

const truths: Record<string, Truth> = existsSync(TRUTH_FILE)
  ? JSON.parse(readFileSync(TRUTH_FILE, 'utf8'))
  : {};
let truthsChanged = false;

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
console.log(`gap_search_budget ${GAP_NODES} nodes`);

/** The tracker's outputs after a dump of `to` following a `hello`, from `from`. */
function trackDump(from: Position, to: Position, occupancyOnly: boolean) {
  const tracker = createTracker({ variant: from.variant, start: from, occupancyOnly });
  const squares = from.variant === 'brazilian' ? 32 : 50;
  const senses = occupancyOnly ? 'occupancy' : 'pieces';
  const text = occupancyOnly ? to.toBoardString().replace(/[wbWB]/g, 'o') : to.toBoardString();
  return [
    ...tracker.push({ t: 1000, type: 'hello', serial: 'B', protocol: 'damlink-line/1.0', squares, senses }),
    ...tracker.push({ t: 1000, type: 'snapshot', board: text }),
    ...tracker.push({ t: 3000, type: 'tick' }),
  ];
}

/** One case a line, so a new case is a one-line change. */
function writeTruths(): void {
  const lines = Object.entries(truths).map(
    ([key, truth]) => `  ${JSON.stringify(key)}: ${JSON.stringify(truth)}`,
  );
  writeFileSync(TRUTH_FILE, `{\n${lines.join(',\n')}\n}\n`);
}

const times: number[] = [];
for (const plies of PLIES) {
  const tally = { cases: 0, unique: 0, recovered: 0, transposed: 0, alerted: 0, shorter: 0, unsettled: 0 };
  for (let seed = 1; seed <= GAMES && tally.unique < WANT && tally.unsettled < UNSETTLED; seed++) {
    const gap = gapOf(seed, plies);
    if (!gap) continue;
    tally.cases++;
    const board = sensedBoard(gap.to, gap.occupancyOnly);
    const t0 = performance.now();
    searchGap(gap.from, board);
    times.push(performance.now() - t0);
    const key = `${plies}:${seed}`;
    let truth = truths[key];
    if (!truth || (!truth.complete && truth.budget < REFERENCE_NODES)) {
      const ref = referenceLines(gap.from, board, plies, 2, REFERENCE_NODES);
      truth = { plies: ref.plies, count: ref.count, complete: ref.complete, budget: REFERENCE_NODES };
      truths[key] = truth;
      truthsChanged = true;
    }
    if (truth.underWay === undefined) {
      truth.underWay = referenceUnderWay(gap.from, board, Math.min(SHORT_PLIES, plies) - 1) ?? -1;
      truthsChanged = true;
    }
    if (!truth.complete) {
      tally.unsettled++;
      continue;
    }
    // A shorter line, or fewer plies and a move under way (the search's first stage), explain it too.
    if (truth.plies !== plies || (truth.underWay >= 0 && truth.underWay < plies)) {
      tally.shorter++;
      continue;
    }
    const out = trackDump(gap.from, gap.to, gap.occupancyOnly);
    if (truth.count > 1) {
      tally.transposed++;
      if (
        out.some((o) => o.type === 'alert' && o.alert.rule === 'gap' && (o.alert.candidates?.length ?? 0) > 1)
      )
        tally.alerted++;
      continue;
    }
    tally.unique++;
    const moves = out.flatMap((o) => (o.type === 'move' ? [o] : []));
    // One ply shown complete is the tracker's ordinary move (not marked); longer lines are the search's.
    const exact =
      lineKey(moves.map((o) => o.move)) === lineKey(gap.line) &&
      (plies === 1 || moves.every((o) => o.recovered)) &&
      !out.some((o) => o.type === 'alert');
    if (exact) tally.recovered++;
  }
  console.log(`gap_cases_${plies} ${tally.cases} cases`);
  console.log(`gap_unique_lines_${plies} ${tally.unique} lines`);
  console.log(`gap_transposed_${plies} ${tally.transposed} cases`);
  console.log(`gap_transposed_alerted_${plies} ${tally.alerted} cases`);
  console.log(`gap_shorter_${plies} ${tally.shorter} cases`);
  console.log(`gap_unsettled_${plies} ${tally.unsettled} cases`);
  // No unique line among the cases settled: no ratio to give.
  const ratio = tally.unique === 0 ? 'nan' : (tally.recovered / tally.unique).toFixed(3);
  console.log(`gap_recovered_ratio_${plies} ${ratio} ratio`);
  if (truthsChanged) writeTruths();
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))];
console.log(`gap_search_p50_ms ${pct(0.5).toFixed(1)} ms`);
console.log(`gap_search_p99_ms ${pct(0.99).toFixed(1)} ms`);
console.log(`gap_search_max_ms ${pct(1).toFixed(1)} ms`);
