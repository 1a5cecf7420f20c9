// The tracker and the gap searches (./gap/): a search begun after a dump, stepped as inputs grant
// it, the line it finds recorded or held in a `gap` alert for the arbiter, and what was played
// meanwhile followed. The searches themselves, and the play followed, are ./gap/'s.
import { RecordingTracker } from './recording.ts';
import { legalMoves, type Move, moveKey } from '../engine/index.ts';
import { shows } from './sensed-codes.ts';
import { type FollowedMove, type GapSettled, type LostLines, readSince } from './gap/index.ts';
import { lineNotation } from './gap/answer.ts';
import { GAP_MAX_LINES, type GapLine } from './gap/search.ts';
import type { TrackerOutput } from './types.ts';
import type { Decider } from './episode.ts';

export abstract class SearchingTracker extends RecordingTracker {
  /**
   * After a dump (lost events): the lines of legal play that lead to the board (./gap/lost-lines.ts). One
   * line → recorded (each move `recovered`); its last ply may still be under way (a capture landed,
   * its pieces still coming off; a piece in the hand) → the ones before it are recorded, the move
   * under way follows as an ordinary move. Several lines the hands before the gap do not tell
   * apart → a `gap` alert: the first is recorded, provisional, and play goes on from it live until
   * the arbiter picks the line. A failed try keeps the episode open: the hands may be in the middle of
   * a move at the dump, and the board settles on a legal continuation a moment later.
   * The search runs in steps (the budget's `step` nodes), taken as inputs grant them (searchOn): one
   * an input, or as many as a tick grants when the daemon shares the CPU among boards. A hard gap
   * never holds the event loop for more than the steps granted, and the board waits undecided
   * meanwhile.
   */
  protected resync(t: number, by: Decider, out: TrackerOutput[]): boolean {
    if (!this.gaps.begin(this.episode, this.position, this.board, this.episode.snapshot)) return false;
    return this.stepSearch(t, by, out);
  }

  /**
   * The search under way, on an input that did not change the board: its next step. A board that
   * changed (and settled) since is another search's; the one for it starts at its settle.
   */
  protected searchOn(t: number, out: TrackerOutput[]): void {
    if (!this.gaps.searchable(this.episode, this.position, this.sensed, this.unsettled)) return;
    if (this.stepsLeft === 0) return;
    const by = this.episode.deferred;
    if (this.stepSearch(t, by, out)) return;
    // No line: the board stays undecided, and a press or the stall time that came meanwhile decides.
    this.episode.undecided = true;
    if (by !== undefined && !this.waiting) this.classify(t, by, out);
  }

  /**
   * The steps of the search the input grants. Still searching: the board waits undecided (a press
   * or the stall time is kept for when it ends) — true; a line found: recorded — true; none: false.
   */
  protected stepSearch(t: number, by: Decider, out: TrackerOutput[]): boolean {
    const step = this.gaps.step(this.episode, this.stepsLeft);
    this.stepsLeft = 0;
    if (step.kind === 'searching') {
      this.episode.undecided = true;
      if (by !== undefined) this.episode.deferred = by;
      return true;
    }
    if (step.kind === 'none') return false;
    const found = step.lost;
    // Played on while it was searched: the line the moves since read from goes first, and they
    // follow it as they were seen.
    const read = step.since ? readSince(found.lines, step.since, t) : undefined;
    const lines = read?.lines ?? found.lines;
    const first = lines[0];
    // The game position itself with a move under way: no ply was lost.
    if (first.line.length === 0 && !read) return false;
    const lost = this.episode.eventsLost;
    if (!found.unique && first.line.length > 0) this.holdGap(lines, found, t, out);
    this.recordLine(first.line, t, out, true);
    if (read) {
      this.playedSince(read.followed, t, out);
      return true;
    }
    if (first.underWay) {
      // The move under way began in the gap too: its hands' order cannot be judged either.
      this.episode.undecided = true;
      this.episode.eventsLost = lost;
    }
    return true;
  }

  /** Several lines fit: one `gap` alert listing them; the first is recorded, provisional, until the answer. */
  protected holdGap(lines: readonly GapLine[], found: LostLines, t: number, out: TrackerOutput[]): void {
    const { total } = found;
    const pos = this.position;
    const side = pos.turn;
    const plies = lines[0].line.length;
    const counted = total >= GAP_MAX_LINES ? `at least ${total}` : `${total}`;
    const detail = `${plies} ${plies === 1 ? 'ply' : 'plies'} were lost; ${counted} lines lead to the board${
      total > lines.length ? ` (${lines.length} listed)` : ''
    }: which one was played?`;
    const alert = this.emitAlert(
      'gap',
      this.moves.length + 1,
      side,
      t,
      out,
      { side, detail },
      pos,
      lines[0].end,
    );
    alert.candidates = lines.map((l) => lineNotation(pos, l.line));
    // The board the lines lead to: the one searched, whatever the players have done since.
    alert.boardShown = found.board;
    this.gaps.hold(alert, this.moves.length, lines[0].line, out.length);
  }

  /** The arbiter's line for a held gap, settled (./gap/hold.ts): recorded, then what was played since. */
  protected settleGap(line: readonly Move[], settled: GapSettled, t: number, out: TrackerOutput[]): void {
    if (settled.kind === 'stands') {
      out.push(...settled.outputs);
      return;
    }
    this.recordLine(line, t, out, true);
    for (const m of settled.played) {
      const legal = legalMoves(this.position).find((l) => moveKey(l) === moveKey(m));
      if (!legal) break;
      this.recordLine([legal], t, out);
    }
    // Moves tracked from the other line that are not legal from this one: what the board shows
    // since is a gap of its own.
    this.unexplainedSince(t);
  }

  /**
   * Moves followed while a gap was open (FollowedMove), recorded; what the board shows beyond them
   * (after an irregularity, past the events kept, a move under way) is a gap of its own, from here.
   */
  protected playedSince(followed: readonly FollowedMove[], t: number, out: TrackerOutput[]): void {
    for (const f of followed) this.recordLine([f.move], t, out, f.recovered === true);
    this.unexplainedSince(t);
  }

  /** A decision left the board showing more than the record: searched as after lost events. */
  protected unexplainedSince(t: number): void {
    if (shows(this.sensed, this.position)) return;
    this.episode.snapshot = true;
    this.episode.eventsLost = true;
    this.lastChange = t;
    this.unsettled = true;
  }

  /** The irregular move the board shows, read at a press or after the stall time (tracker.ts). */
  protected abstract classify(t: number, by: Decider, out: TrackerOutput[]): void;
}
