// A game's alerts: each raised once with its id, kept open until the arbiter or the players
// answer it, all dropped with the game.
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import { type Position, writeFen } from '../engine/index.ts';
import { alertMessage, alertParams, type MessageFacts } from './messages.ts';
import type { Alert, RuleId } from './types.ts';

/** What an alert is about: its rule, ply and side, the facts its message tells, when, and the proof. */
export interface AlertFacts {
  rule: RuleId;
  ply: number;
  side: Side;
  t: number;
  facts: MessageFacts;
  /** The sensor events since the previous decision. */
  proof: readonly BoardEvent[];
  before?: Position;
  after?: Position;
}

export class AlertLog {
  private raised: Alert[] = [];
  private unanswered: Alert[] = [];

  /** The alerts not answered yet, oldest first. */
  get open(): readonly Alert[] {
    return this.unanswered;
  }

  /** A new alert, open. Its id, `${ply}-${rule}-${n}`, counts the same rule at the same ply this game. */
  raise({ rule, ply, side, t, facts, proof, before, after }: AlertFacts): Alert {
    const n = this.raised.filter((a) => a.ply === ply && a.rule === rule).length + 1;
    const alert: Alert = {
      id: `${ply}-${rule}-${n}`,
      rule,
      ply,
      side,
      message: alertMessage(rule, facts),
      params: alertParams(facts),
      t,
      events: [...proof],
    };
    if (before) alert.before = writeFen(before);
    if (after) alert.after = writeFen(after);
    this.raised.push(alert);
    this.unanswered.push(alert);
    return alert;
  }

  /** The open alert of that id. */
  find(id: string): Alert | undefined {
    return this.unanswered.find((a) => a.id === id);
  }

  /** Answered: the alerts leave the open ones. */
  close(...alerts: readonly Alert[]): void {
    this.unanswered = this.unanswered.filter((a) => !alerts.includes(a));
  }

  /** A new game: ids count from 1 again. */
  clear(): void {
    this.raised = [];
    this.unanswered = [];
  }
}
