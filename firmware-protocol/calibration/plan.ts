// The calibration's prompts: set up the start position, then touch every square once (lift a piece
// and put it back, or put a man on an empty square and take it away), then a king of each colour,
// then the start position read back. Each prompt is text for a person and data for a script.
import type { BoardSize } from '../board-string.ts';
import { squareCount } from '../board-string.ts';

export type PromptAction =
  /** Set up the start position (rule 5.1). */
  | { action: 'setup' }
  /** Lift the piece on `square` and put it back. */
  | { action: 'lift-return'; square: number }
  /** Put a man (white on piece boards) on the empty `square`, then take it away. */
  | { action: 'put-remove'; square: number; piece: 'w' | 'o' }
  /** Put a king on the empty `square`, then take it away. */
  | { action: 'king'; square: number; piece: 'W' | 'B' }
  /** Leave the start position standing while the board is read back. */
  | { action: 'check' };

export type Prompt = PromptAction & {
  /** 1-based number of this prompt, and how many there are. */
  n: number;
  of: number;
  text: string;
};

const PIECE_NAME = { w: 'a white man', o: 'a man', W: 'a white king', B: 'a black king' } as const;

export function promptText(a: PromptAction): string {
  switch (a.action) {
    case 'setup':
      return 'Set up the start position (Black on the first rows, White on the last).';
    case 'lift-return':
      return `Lift the piece on ${a.square} and put it back.`;
    case 'put-remove':
    case 'king':
      return `Put ${PIECE_NAME[a.piece]} on ${a.square}, then take it away.`;
    case 'check':
      return 'Leave the start position standing: reading it back.';
  }
}

/** Rows of men each side starts with, as squares: 20 on 10×10, 12 on 8×8. */
export const startMen = (size: BoardSize): number => (size === 10 ? 20 : 12);

/** The prompts for a board, once its set-up says whether it tells pieces apart. */
export function calibrationPlan(size: BoardSize, senses: 'pieces' | 'occupancy'): PromptAction[] {
  const n = squareCount(size);
  const men = startMen(size);
  const plan: PromptAction[] = [{ action: 'setup' }];
  for (let s = 1; s <= n; s++) {
    const empty = s > men && s <= n - men;
    plan.push(
      empty
        ? { action: 'put-remove', square: s, piece: senses === 'pieces' ? 'w' : 'o' }
        : { action: 'lift-return', square: s },
    );
  }
  if (senses === 'pieces') {
    // On squares empty in the start position: the third square of the middle rows, and the eighth.
    plan.push({ action: 'king', square: men + 3, piece: 'W' });
    plan.push({ action: 'king', square: n - men - 2, piece: 'B' });
  }
  plan.push({ action: 'check' });
  return plan;
}
