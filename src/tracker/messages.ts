// Alert texts: what happened, in words an arbiter understands, with the article it falls under.
import type { Side } from '../../firmware-protocol/side.ts';
import type { AlertParams, RuleId } from './types.ts';

/** One title per id of RULE_IDS (the Record type asks for every one, and no other). */
const TITLES: Record<RuleId, string> = {
  '4.11': 'captured pieces removed out of order',
  '5.1': 'board turned the wrong way',
  '5.3': 'piece on a light square',
  '5.4.1': 'two moves in a row',
  '5.4.2': 'piece moved in a wrong direction',
  '5.4.3': 'touched one piece and moved another',
  '5.4.4': 'move taken back',
  '5.4.5': "opponent's piece moved",
  '5.4.6': 'quiet move although a capture was possible',
  '5.4.7': 'piece removed without reason',
  '5.4.8': 'fewer pieces captured than possible',
  '5.4.9': 'stopped in the middle of a multi-capture',
  '5.4.10': 'pieces removed before the multi-capture was finished',
  '5.4.11': 'not all captured pieces removed',
  '5.4.12': 'removed a piece that was not jumped',
  '5.4.13': 'removal of the captured pieces interrupted',
  '5.4.14': 'removed own piece after a capture',
  'unknown-position': 'board shows no position reachable from the game',
  flag: 'flag fell (time exceeded)',
  flags: 'both flags fell',
  gap: 'moves lost in a gap fit several lines',
};

/** The sentence that follows the title of every alert of these rules (the pages' `rule.detail.*`). */
const DETAILS: Partial<Record<RuleId, string>> = {
  '5.1': 'The start position stands turned 180° (White on the first squares); damlink reads it turned.',
  '5.3': 'It is out of play.',
};

const squares = (list: readonly number[]) => list.join(', ');
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

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
  const who = facts.side === undefined ? '' : facts.side === 'white' ? 'White: ' : 'Black: ';
  const parts = [
    facts.move,
    facts.squares && facts.squares.length > 0 ? `squares ${squares(facts.squares)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const sentence = facts.detail ?? DETAILS[rule];
  const detail = sentence ? ` ${sentence}` : '';
  // Only article numbers are written before the text: the other ids are not words for people.
  const label = /^\d/.test(rule) ? `${rule} ` : '';
  const title = who ? TITLES[rule] : capitalized(TITLES[rule]);
  return `${label}${who}${title}${parts ? ` (${parts})` : ''}.${detail}`;
}
