// The end of a game as the arbiter enters it, and the quickplay finish (Appendix G): what each
// action means for the result and the clock, and how the record says it (PDN comments). Pure.
import type { Side } from '../../firmware-protocol/events.ts';
import { parseTimeControl, quickplayFinish, type TimeControl } from '../clock/time-control.ts';
import type { ArbiterAction, ArbiterActionType } from './action-types.ts';
import type { GameInfo, GameResult, QuickplayState } from './types.ts';

export type { ActionRecord, ArbiterAction, ArbiterActionType, ClaimDecision } from './action-types.ts';

/** The actions that belong to Appendix G: only where the quickplay finish applies. */
export const QUICKPLAY_ACTIONS: readonly ArbiterActionType[] = ['increment', 'claim', 'claim-ends'];

/** G.4 and G.5: the opponent's two minutes; G.4's increment a move. */
export const ADDED_TIME_MS = 2 * 60_000;
export const QUICKPLAY_INCREMENT_MS = 5_000;

const name = (side: Side) => (side === 'white' ? 'White' : 'Black');
export const opponent = (side: Side): Side => (side === 'white' ? 'black' : 'white');
/** The result when `side` loses. */
export const lossFor = (side: Side): Exclude<GameResult, '*'> => (side === 'white' ? '0-2' : '2-0');

/** The result the action writes, with why (the arbiter entered it, so it is written, not proposed). */
export function actionResult(
  action: ArbiterAction,
): { result: Exclude<GameResult, '*'>; reason: string } | undefined {
  switch (action.type) {
    case 'resign':
      return { result: lossFor(action.side), reason: `7.2.1: ${name(action.side)} resigned` };
    case 'refusal':
      return {
        result: lossFor(action.side),
        reason: `7.2.4: ${name(action.side)} refused to follow the rules`,
      };
    case 'draw-agreed':
      return { result: '1-1', reason: '7.3.1: draw by agreement' };
    case 'claim':
      return action.decision === 'accept'
        ? { result: '1-1', reason: `G.5: ${name(action.side)}'s draw claim accepted` }
        : undefined;
    default:
      return undefined;
  }
}

/** Who gets the arbiter's two minutes, if anyone. */
export function addedTimeFor(action: ArbiterAction): Side | undefined {
  if (action.type === 'increment') return opponent(action.side);
  if (action.type === 'claim' && action.decision !== 'accept') return opponent(action.side);
  return undefined;
}

/** The PDN comment that records the action. */
export function actionComment(action: ArbiterAction): string {
  switch (action.type) {
    case 'draw-offer':
      return `${name(action.side)} offers a draw`;
    case 'increment':
      return `G.4: ${name(action.side)} asked for the increment — 5 s a move for both, 2 min to ${name(opponent(action.side))}`;
    case 'claim':
      return action.decision === 'accept'
        ? actionResult(action)!.reason
        : `G.5: ${name(action.side)}'s draw claim ${action.decision === 'postpone' ? 'postponed' : 'rejected'} — 2 min to ${name(opponent(action.side))}`;
    case 'claim-ends':
      return `G.6: ${name(action.side)} claimed a draw without an arbiter present — the game ends here; the appointed arbiter decides`;
    default:
      return actionResult(action)!.reason;
  }
}

/** The time control a game's info names (none when absent or unreadable). */
export function controlOf(info: GameInfo): TimeControl | undefined {
  const text = info.timeControl;
  if (text === undefined) return undefined;
  const r = parseTimeControl(text);
  return r.ok ? r.value : undefined;
}

/** Appendix G as a game with time control `control` starts it (G.2 `announced` for the event; G.3). */
export function freshQuickplay(
  control: TimeControl | undefined,
  announced: boolean,
): QuickplayState | undefined {
  if (!control) return undefined;
  const g = quickplayFinish(control, announced);
  return g.applies ? { applies: true, incrementMs: 0 } : { applies: false, reason: g.reason, incrementMs: 0 };
}

/** Appendix G after `action`, entered at time `t` after ply `ply`, the game standing at `fen`. */
export function nextQuickplay(
  q: QuickplayState,
  action: ArbiterAction,
  t: number,
  ply: number,
  fen: string,
): QuickplayState {
  const { postponed: _, ...rest } = q;
  switch (action.type) {
    case 'increment':
      return { ...q, incrementMs: q.incrementMs + QUICKPLAY_INCREMENT_MS };
    case 'claim':
      return action.decision === 'postpone'
        ? { ...rest, postponed: { side: action.side, ply, t, decision: 'postpone' } }
        : rest;
    case 'claim-ends':
      return { ...rest, ended: { side: action.side, ply, fen, t } };
    default:
      return q;
  }
}
