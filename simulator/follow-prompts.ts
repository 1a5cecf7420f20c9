// A virtual board whose "person" answers the calibration's prompts (I/O half): the hands of
// `followPrompt`, one movement after the other in real time (scaled by `speed`).
import type { Prompt } from '../firmware-protocol/calibration/plan.ts';
import { type FollowOptions, followPrompt } from './calibration.ts';
import type { VirtualBoard } from './virtual-board.ts';

/** Performs the prompt on the board; resolves when the last hand movement has been made. */
export async function answerPrompt(
  board: VirtualBoard,
  prompt: Prompt,
  options: FollowOptions & { speed?: number } = {},
): Promise<void> {
  const speed = options.speed ?? 1;
  const events = followPrompt(prompt, board.boardString(), 0, options);
  let last = 0;
  for (const e of events) {
    await new Promise((r) => setTimeout(r, (e.t - last) / speed));
    last = e.t;
    board.perform({ ...e, t: board.gameNow() });
  }
}
