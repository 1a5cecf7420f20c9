// The rule each alert names, in plain words (from the rules digest, docs/rules.md).

export const RULE_TEXT = {
  4.11: 'Captured pieces must be removed right after the capture, in capture order or its exact reverse, without pausing.',
  5.1: 'The board was set up with the wrong orientation: the game is void and restarts.',
  5.3: 'A piece on a light square is out of play.',
  '5.4.1': 'Two moves in a row by the same player.',
  '5.4.2': 'A man or king moved in a wrong direction.',
  '5.4.3': 'A piece was touched and another one moved (touch-move).',
  '5.4.4': 'A move was taken back.',
  '5.4.5': "A player moved an opponent's piece.",
  '5.4.6': 'A non-capturing move was played while a capture was possible.',
  '5.4.7': 'A piece (own or opponent’s) was removed without reason.',
  '5.4.8': 'Fewer or more pieces were captured than possible (the maximum capture is compulsory).',
  '5.4.9': 'The player stopped in the middle of a multi-capture (let go of the piece).',
  '5.4.10': 'Pieces were removed during an unfinished multi-capture.',
  '5.4.11': 'Not all captured pieces were removed.',
  '5.4.12': 'A piece was removed that was not jumped.',
  '5.4.13': 'The removal of captured pieces was interrupted.',
  '5.4.14': 'The player removed own piece(s) after a capture.',
  'unknown-position': 'The board matches no legal continuation: the arbiter must look at the board.',
  gap: 'Moves were lost while the board was not watched, and several lines lead to the board: choose the one played (or enter it from the score sheet).',
};

/** Only the opponent decides (5.4); once the opponent moves, the situation stands (5.7). */
export const DECISION_NOTE =
  'Only the opponent decides on a correction (5.4). Once the opponent has moved, the irregularity stands (5.7).';

export function ruleText(rule) {
  return RULE_TEXT[rule] ?? 'Irregularity reported by the board tracker.';
}
