// A game's alerts: each kept once by id (an alert raised again keeps the arbiter's decision),
// attached to the move it is about, and marked when the players corrected it on the board (5.4).
import type { ArbiterDecision } from '../tracker/types.ts';
import type { Emit } from './event-log.ts';
import type { PlayedLine } from './line.ts';
import type { AlertRecord } from './types.ts';

export class GameAlerts {
  readonly list: AlertRecord[] = [];

  constructor(
    private readonly line: PlayedLine,
    private readonly emit: Emit,
  ) {}

  /** An alert raised (or raised again); about a move already recorded, it is attached to it. */
  raise(alert: AlertRecord, t = alert.t): void {
    const known = this.list.findIndex((a) => a.id === alert.id);
    const kept = known < 0 ? alert : { ...alert, decision: this.list[known].decision };
    if (known < 0) this.list.push(kept);
    else this.list[known] = kept;
    this.line.attachAlert(alert.ply, alert.id);
    this.emit(t, { kind: 'alert', alert: kept });
  }

  /** The arbiter's decision on an alert; false for an alert this game does not have. */
  decide(decision: ArbiterDecision, t: number): boolean {
    const i = this.list.findIndex((a) => a.id === decision.alertId);
    if (i < 0) return false;
    this.list[i] = { ...this.list[i], decision: { ...decision, t } };
    this.emit(t, { kind: 'decision', alertId: decision.alertId, decision });
    return true;
  }

  /** The players corrected these alerts' irregularity on the board. */
  corrected(ids: readonly string[], t: number): void {
    for (const id of ids) {
      const alert = this.list.find((a) => a.id === id);
      if (alert) this.raise({ ...alert, correctedOnBoard: { t } }, t);
    }
  }

  /** The alerts a move of `ply` carries: those of its irregularities (all of the ply's when not said). */
  ofMove(ply: number, irregular: readonly string[] | undefined): string[] {
    return this.list.filter((a) => a.ply === ply && (irregular?.includes(a.rule) ?? true)).map((a) => a.id);
  }

  clear(): void {
    this.list.length = 0;
  }
}
