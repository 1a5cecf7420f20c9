// A board that reports by scans (as DGT boards do): it reads every field once a period and sends
// what changed since its last report, field after field in its scan order, a few ms apart — not in
// the order the hands made the changes. A change undone within one scan is never sent.
import type { BoardEvent, PieceCode } from '../firmware-protocol/events.ts';
import type { Rng } from './prng.ts';

export interface ScanReports {
  /** The scan period (ms): what the board's hello, or its description, says. */
  scanMs: number;
  /** The order the board reads its fields in: square numbers rising or falling. */
  order: 'rising' | 'falling';
}

/** One field update on the wire: a DGT message is ~5 ms at 9600 baud. */
const UPDATE_MS = { min: 3, max: 4 };

/**
 * `events` (the hands' changes as made, on a board that stood as `board` before them) as such a
 * board reports them. Snapshots, presses, clocks and faults are sent as they happen; a snapshot
 * is the board's own full report and starts its reports afresh.
 */
export function scanReported(
  events: readonly BoardEvent[],
  board: string,
  scan: ScanReports,
  rng: Rng,
): BoardEvent[] {
  const cells = (text: string): (PieceCode | 'o' | undefined)[] =>
    [...text].map((c) => (c === '.' ? undefined : (c as PieceCode | 'o')));
  let now: (PieceCode | 'o' | undefined)[] = cells(board);
  let sent = [...now];
  const fields = now.map((_, i) => i);
  if (scan.order === 'falling') fields.reverse();
  const out: BoardEvent[] = [];
  const first = events[0]?.t ?? 0;
  // Where in its cycle the board is when the first change comes.
  let next = first + Math.floor(rng.next() * scan.scanMs);

  const report = (at: number) => {
    let t = at;
    for (const i of fields) {
      if (now[i] === sent[i]) continue;
      const square = i + 1;
      // A field whose piece changed within one scan (a crown put on): it went and came back.
      if (sent[i] !== undefined) out.push({ t, type: 'lift', square });
      const piece = now[i];
      if (piece !== undefined)
        out.push(piece === 'o' ? { t, type: 'put', square } : { t, type: 'put', square, piece });
      t += Math.round(rng.range(UPDATE_MS.min, UPDATE_MS.max));
    }
    sent = [...now];
  };

  for (const e of events) {
    for (; next < e.t; next += scan.scanMs) report(next);
    if (e.type === 'lift') now[e.square - 1] = undefined;
    else if (e.type === 'put') now[e.square - 1] = e.piece ?? 'o';
    else {
      if (e.type === 'snapshot') {
        now = cells(e.board);
        sent = [...now];
      }
      out.push(e);
    }
  }
  report(next);
  return out.sort((a, b) => a.t - b.t);
}
