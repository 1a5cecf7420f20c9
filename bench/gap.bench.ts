// `npm run bench -- gap`: gaps of N lost plies (N = 1, 2, 4, 8, 12, 20; GAP_BENCH_PLIES=12,20 for
// some) from seeded self-play games (test/src/tracker/fixtures/gap-lines.ts), each dumped to a
// fresh tracker after a `hello`. The ground truth is the enumeration of every line
// (test/src/tracker/fixtures/gap-reference.ts, which shares no bound with the search), cached in
// test/src/tracker/fixtures/gap-truth.json: it takes up to seconds a case from 12 plies on. Cases
// are taken game after game until GAP_BENCH_UNIQUE (20) of them have one line only, or the
// enumeration failed to settle GAP_BENCH_UNSETTLED (10) cases within GAP_REFERENCE_NODES
// (2,000,000) positions, or GAP_BENCH_GAMES (150) games were tried. A case the enumeration does
// not settle is looked at again for a second line (another line, no longer, replayed to the
// board: fixtures/gap-witness.ts, cached with the truth): one found, the case has no unique line,
// and is settled as `several`.
// Prints `name value unit` lines: gap_recovered_ratio_<N> (unique lines the tracker records exactly,
// each move `recovered`, no alert / unique lines; target 1.0), gap_unique_lines_<N>,
// gap_transposed_<N> (several lines) with gap_transposed_alerted_<N> (of those, the tracker raised
// a `gap` alert listing them), gap_shorter_<N> (a shorter line reaches the board, or one with the
// next move under way: a piece in the hand, a capture's pieces still on), gap_several_<N> (not
// settled by the enumeration, but a second line was found) with gap_several_listed_<N> (of those,
// the search found lines within the tracker's budget: its `gap` alert lists them; the others come
// to unknown-position, and the score sheet), gap_misrecorded_<N> (the search
// answered with one line only, which the tracker records with no alert, where the truth says
// otherwise: a transposed case, or a second line no longer than the search's; target 0),
// gap_unsettled_<N> (neither: left out). The tracker gets a tick every 100 ms after the dump until
// its search ends (a tracker of its own: a step an input, RESYNC_BUDGET.total nodes in all). The
// search alone, every case, in the daemon's steps (RESYNC_BUDGET.step nodes, each granted by a
// tick): gap_search_p50/p99/max_ms (the longest step of a search: how long it holds the event
// loop; target p99 ≤ 50), gap_search_step_p50/p99_ms (every step of every search),
// gap_search_total_p50/p99/max_ms (all of a search's steps) and gap_search_steps_p50/p99/max.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Position } from '../src/engine/index.ts';
import { type GapSearch, GapSearchRun, SHORT_PLIES } from '../src/tracker/gap/search.ts';
import { createTracker } from '../src/tracker/index.ts';
import { RESYNC_BUDGET } from '../src/tracker/gap/lost-lines.ts';
import { gapOf, lineKey, sensedBoard } from '../test/src/tracker/fixtures/gap-lines.ts';
import { referenceLines, referenceUnderWay } from '../test/src/tracker/fixtures/gap-reference.ts';
import { secondLine } from '../test/src/tracker/fixtures/gap-witness.ts';

const WANT = Number(process.env.GAP_BENCH_UNIQUE ?? 20);
const UNSETTLED = Number(process.env.GAP_BENCH_UNSETTLED ?? 10);
const GAMES = Number(process.env.GAP_BENCH_GAMES ?? 150);
const REFERENCE_NODES = Number(process.env.GAP_REFERENCE_NODES ?? 2_000_000);
const PLIES = process.env.GAP_BENCH_PLIES?.split(',').map(Number) ?? [1, 2, 4, 8, 12, 20];
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
  /** Not settled: another line than the one played (engine move keys), null when none was found. */
  second?: string[] | null;
}

const truths: Record<string, Truth> = existsSync(TRUTH_FILE)
  ? JSON.parse(readFileSync(TRUTH_FILE, 'utf8'))
  : {};
let truthsChanged = false;

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
console.log(`gap_search_step_budget ${RESYNC_BUDGET.step} nodes`);
console.log(`gap_search_total_budget ${RESYNC_BUDGET.total} nodes`);

/**
 * The tracker's outputs after a dump of `to` following a `hello`, from `from`: ticks every 100 ms,
 * past the settle and stall times, until its search ends.
 */
function trackDump(from: Position, to: Position, occupancyOnly: boolean) {
  const tracker = createTracker({ variant: from.variant, start: from, occupancyOnly });
  const squares = from.variant === 'brazilian' ? 32 : 50;
  const senses = occupancyOnly ? 'occupancy' : 'pieces';
  const text = occupancyOnly ? to.toBoardString().replace(/[wbWB]/g, 'o') : to.toBoardString();
  const out = [
    ...tracker.push({ t: 1000, type: 'hello', serial: 'B', protocol: 'damlink-line/1.0', squares, senses }),
    ...tracker.push({ t: 1000, type: 'snapshot', board: text }),
  ];
  for (let t = 1100; t <= 3000 || tracker.searching; t += 100) out.push(...tracker.push({ t, type: 'tick' }));
  return out;
}

/**
 * The search alone, in the tracker's steps: the longest step, all of them, and each step (ms); and
 * the plies of the one line it settled on, if so (the tracker records such a line with no alert).
 */
function timeSearch(
  from: Position,
  board: Int8Array,
): { hold: number; total: number; steps: number[]; oneLine: number | undefined; listed: boolean } {
  const run = new GapSearchRun(from, board, { nodes: RESYNC_BUDGET.total });
  const steps: number[] = [];
  let answer: GapSearch | undefined;
  while (!answer) {
    const t0 = performance.now();
    answer = run.step(RESYNC_BUDGET.step);
    steps.push(performance.now() - t0);
  }
  const oneLine =
    answer.kind === 'found' && answer.complete && answer.total === 1
      ? answer.lines[0].line.length
      : undefined;
  return {
    hold: Math.max(...steps),
    total: steps.reduce((a, b) => a + b, 0),
    steps,
    oneLine,
    listed: answer.kind === 'found',
  };
}

/** One case a line, so a new case is a one-line change. */
function writeTruths(): void {
  const lines = Object.entries(truths).map(
    ([key, truth]) => `  ${JSON.stringify(key)}: ${JSON.stringify(truth)}`,
  );
  writeFileSync(TRUTH_FILE, `{\n${lines.join(',\n')}\n}\n`);
}

const holds: number[] = [];
const totals: number[] = [];
const stepCounts: number[] = [];
const stepTimes: number[] = [];
for (const plies of PLIES) {
  const tally = {
    cases: 0,
    unique: 0,
    recovered: 0,
    transposed: 0,
    alerted: 0,
    shorter: 0,
    several: 0,
    listed: 0,
    misrecorded: 0,
    unsettled: 0,
  };
  for (let seed = 1; seed <= GAMES && tally.unique < WANT && tally.unsettled < UNSETTLED; seed++) {
    const gap = gapOf(seed, plies);
    if (!gap) continue;
    tally.cases++;
    const board = sensedBoard(gap.to, gap.occupancyOnly);
    const timed = timeSearch(gap.from, board);
    holds.push(timed.hold);
    totals.push(timed.total);
    stepCounts.push(timed.steps.length);
    stepTimes.push(...timed.steps);
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
    if (!truth.complete && truth.second === undefined) {
      truth.second = secondLine(gap.from, board, gap.line) ?? null;
      truthsChanged = true;
    }
    if (!truth.complete) {
      if (truth.second) {
        tally.several++;
        if (timed.listed) tally.listed++;
        if (timed.oneLine !== undefined && truth.second.length <= timed.oneLine) tally.misrecorded++;
      } else tally.unsettled++;
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
      if (timed.oneLine !== undefined) tally.misrecorded++;
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
  console.log(`gap_several_${plies} ${tally.several} cases`);
  console.log(`gap_several_listed_${plies} ${tally.listed} cases`);
  console.log(`gap_misrecorded_${plies} ${tally.misrecorded} cases`);
  console.log(`gap_unsettled_${plies} ${tally.unsettled} cases`);
  // No unique line among the cases settled: no ratio to give.
  const ratio = tally.unique === 0 ? 'nan' : (tally.recovered / tally.unique).toFixed(3);
  console.log(`gap_recovered_ratio_${plies} ${ratio} ratio`);
  if (truthsChanged) writeTruths();
}
/** p50, p99 and max of `values`, printed as `name_p50 …` lines. */
function percentiles(
  name: string,
  values: number[],
  unit: string,
  digits: number,
  labels = ['p50', 'p99', 'max'],
): void {
  const sorted = [...values].sort((a, b) => a - b);
  const at = { p50: 0.5, p99: 0.99, max: 1 } as Record<string, number>;
  for (const label of labels) {
    const value = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * at[label]))];
    console.log(`${name}_${label}${unit === 'ms' ? '_ms' : ''} ${value.toFixed(digits)} ${unit}`);
  }
}
percentiles('gap_search', holds, 'ms', 1);
percentiles('gap_search_step', stepTimes, 'ms', 1, ['p50', 'p99']);
percentiles('gap_search_total', totals, 'ms', 1);
percentiles('gap_search_steps', stepCounts, 'steps', 0);
