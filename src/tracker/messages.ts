// Alert texts: what happened, in words an arbiter understands, with the article it falls under.
// The words and the sentence are alert-words.js's, shared with the pages.
import type { Side } from '../../firmware-protocol/side.ts';
import { alertSentence, english } from './alert-words.js';
import type { AlertParams, RuleId } from './types.ts';

export interface MessageFacts {
  /** Absent where no one side is concerned (`flags`): the message names none. */
  side?: Side;
  /** The move as the board shows it (`32-28`, `19x28`). */
  move?: string;
  squares?: readonly number[];
  detail?: string;
}

/**
 * The facts of an alert as data (`params` beside `rule`), so a page can say it in its reader's
 * language; the detail sentences are fixed per rule and follow from the rule id.
 */
export function alertParams(facts: MessageFacts): AlertParams {
  // Assigned, not spread: an alert's words are written on the tracker's hot path.
  const params: AlertParams = {};
  if (facts.side) params.side = facts.side;
  if (facts.move) params.move = facts.move;
  if (facts.squares && facts.squares.length > 0) params.squares = [...facts.squares];
  return params;
}

/** `5.4.6 White: quiet move although a capture was possible (32-28).` */
export function alertMessage(rule: RuleId, facts: MessageFacts): string {
  return alertSentence(rule, facts, english, facts.detail);
}
