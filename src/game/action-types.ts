// What the arbiter enters at the end of a game and for the quickplay finish (Appendix G), as the
// record keeps it; what each action means is in actions.ts.
import type { Side } from '../../firmware-protocol/events.ts';

export type ClaimDecision = 'accept' | 'postpone' | 'reject';

export type ArbiterAction =
  /** 7.2.1: `side` resigned. */
  | { type: 'resign'; side: Side }
  /** 7.3.1: the players agreed a draw. */
  | { type: 'draw-agreed' }
  /** 7.2.4: `side` refuses to follow the rules. */
  | { type: 'refusal'; side: Side }
  /** `side` offered a draw (recorded; the answer is a move or an agreement). */
  | { type: 'draw-offer'; side: Side }
  /** G.4: `side` (under two minutes) asked for the increment: 5 s a move for both, 2 min to the opponent. */
  | { type: 'increment'; side: Side }
  /** G.5: `side` claimed a draw; the arbiter's decision. */
  | { type: 'claim'; side: Side; decision: ClaimDecision }
  /** G.6: without an arbiter, `side`'s claim ends the game; the appointed arbiter decides. */
  | { type: 'claim-ends'; side: Side };

export type ArbiterActionType = ArbiterAction['type'];

export interface ActionRecord {
  action: ArbiterAction;
  t: number;
  /** The last ply played when it was entered (0: before the first move). */
  ply: number;
}
