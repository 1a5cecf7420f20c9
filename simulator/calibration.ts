// A person following the calibration's prompts, for rehearsals and tests: each prompt becomes the
// lifts and puts a person's hands make (pure: the board as it stands in, events out).
import { diffBoards, isPieceCode, startPosition } from '../firmware-protocol/board-string.ts';
import type { Prompt } from '../firmware-protocol/calibration/plan.ts';
import type { BoardEvent, LiftEvent, PutEvent } from '../firmware-protocol/events.ts';

type Hand = Omit<LiftEvent, 't'> | Omit<PutEvent, 't'>;

export interface FollowOptions {
  /** How this board's kings are made: a crowned piece (default) or two men stacked. */
  kings?: 'crown' | 'stacked';
  /** Milliseconds between two hand movements (default 300). */
  stepMs?: number;
}

/** The events that answer `prompt` on a board standing as `board` (a board string), from time `t`. */
export function followPrompt(
  prompt: Prompt,
  board: string,
  t: number,
  options: FollowOptions = {},
): BoardEvent[] {
  const step = options.stepMs ?? 300;
  const at = (hands: Hand[]): BoardEvent[] => hands.map((e, i) => ({ ...e, t: t + i * step }));
  switch (prompt.action) {
    case 'setup': {
      const n = board.length;
      return diffBoards(board, startPosition(n === 50 ? 10 : 8), 0).map((e, i) => ({
        ...e,
        t: t + i * step,
      }));
    }
    case 'lift-return': {
      const piece = board[prompt.square - 1];
      const put = isPieceCode(piece) ? { piece } : {};
      return at([
        { type: 'lift', square: prompt.square },
        { type: 'put', square: prompt.square, ...put },
      ]);
    }
    case 'put-remove':
      return at([
        { type: 'put', square: prompt.square, ...(prompt.piece === 'o' ? {} : { piece: prompt.piece }) },
        { type: 'lift', square: prompt.square },
      ]);
    case 'king': {
      const man = prompt.piece === 'W' ? 'w' : 'b';
      const square = prompt.square;
      return options.kings === 'stacked'
        ? at([
            { type: 'put', square, piece: man },
            { type: 'put', square, piece: prompt.piece },
            { type: 'put', square, piece: man },
            { type: 'lift', square },
          ])
        : at([
            { type: 'put', square, piece: prompt.piece },
            { type: 'lift', square },
          ]);
    }
    case 'check':
      return [];
  }
}
