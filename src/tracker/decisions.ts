// The arbiter's answer to an alert: a line or the score sheet's moves for a gap, a corrected
// position, or the game as it stands (docs/api.md, `decide`). The game is never rewritten beyond it.
import { SearchingTracker } from './searching.ts';
import { parseFen } from '../engine/index.ts';
import { gapDecisionLine } from './gap/answer.ts';
import type { ArbiterDecision, TrackerOutput } from './types.ts';

export abstract class DecidingTracker extends SearchingTracker {
  decide(decision: ArbiterDecision, t: number): TrackerOutput[] {
    const out: TrackerOutput[] = [];
    const alert = this.alerts.find(decision.alertId);
    if (!alert) return out;
    if (decision.kind === 'line' || decision.kind === 'moves') {
      const line = gapDecisionLine(alert, decision, this.variant);
      if (!line.ok) return out;
      if (this.gaps.holds(alert)) {
        this.alerts.close(alert);
        this.settleGap(line.value, this.gaps.settle(line.value, this.line, t), t, out);
      } else if (this.waiting?.alert === alert && !this.waiting.base) {
        // No line within the search's bound: the score sheet's moves, checked to reach the board.
        this.alerts.close(alert);
        this.waiting = undefined;
        this.recordLine(line.value, t, out, true);
        // Played on while the arbiter wrote: the moves followed since, as they were seen.
        this.afterDecision();
        this.playedSince(this.gaps.watched(alert, this.position, t), t, out);
      }
      return out;
    }
    // Any other answer to a gap lets the tracked line stand (then a corrected position follows).
    if (this.gaps.holds(alert)) out.push(...this.gaps.confirm());
    const fen = decision.kind === 'corrected' ? parseFen(decision.fen, { variant: this.variant }) : undefined;
    if (fen && !fen.ok) return out;
    this.alerts.close(alert);
    this.corrections.decided(alert);
    if (fen?.ok) {
      this.setPosition(fen.value, t, `${alert.rule} corrected by the arbiter`, out);
      return out;
    }
    if (this.waiting?.alert === alert) {
      const physical = this.board.physicalPosition(this.position);
      if (physical) this.setPosition(physical, t, `${alert.rule} stands (arbiter)`, out);
      else this.waiting = undefined;
    }
    return out;
  }
}
