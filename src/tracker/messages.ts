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
  return {
    ...(facts.side ? { side: facts.side } : {}),
    ...(facts.move ? { move: facts.move } : {}),
    ...(facts.squares && facts.squares.length > 0 ? { squares: [...facts.squares] } : {}),
  };
}

/** `5.4.6 White: quiet move although a capture was possible (32-28).` */
export function alertMessage(rule: RuleId, facts: MessageFacts): string {
  return alertSentence(rule, alertParams(facts), english, facts.detail);
}
