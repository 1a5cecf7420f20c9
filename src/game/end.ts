// Game end as the engine judges it (src/engine/draw.ts): 7.2 no piece / no legal move, and the draw
// rules of the tournament's profile. The record proposes the result; the arbiter (or autoResult)
// writes it.
import type { DrawProfileName, DrawRules, GameState, Variant } from '../engine/index.ts';
import { DRAW_PROFILES } from '../engine/index.ts';
import type { Side } from '../../firmware-protocol/events.ts';
import type { GameResult } from './types.ts';

export interface GameEnd {
  result: Exclude<GameResult, '*'>;
  /** Starts with the rule: `7.2: black cannot move`, `6.1: the same position …`. */
  reason: string;
  /** 6.5: a draw with advantage to this side (1+/1−). */
  advantage?: Side;
}

/**
 * The draw rules for a profile name: `fmjd`, `fmjd-64`, `club`, or `advantage` (fmjd with 6.5
 * draws with advantage). Unknown or absent: the variant's own (fmjd, or fmjd-64 on 8×8).
 */
export function drawRulesFor(variant: Variant, profile?: string | DrawRules): DrawRules {
  if (typeof profile === 'object') return profile;
  if (profile === 'advantage') return { profile: 'fmjd', advantageDraw: true };
  if (profile && (DRAW_PROFILES as readonly string[]).includes(profile))
    return { profile: profile as DrawProfileName };
  return { profile: variant === 'brazilian' ? 'fmjd-64' : 'fmjd' };
}

/** 6.5 draws with advantage are played: the draw rules use them, and the game is not the 64 version. */
export const advantageDraws = (rules: DrawRules, variant: Variant): boolean =>
  rules.advantageDraw === true && rules.profile !== 'fmjd-64' && variant !== 'brazilian';

/** The end the engine sees in `state`, in the words the arbiter reads. */
export function gameEnd(state: GameState): GameEnd | undefined {
  const over = state.over;
  if (!over) return undefined;
  const advantage = over.advantage ? ` (6.5: draw with advantage to ${over.advantage})` : '';
  const reason = `${over.rule}: ${over.reason}${advantage}`;
  return { result: over.result, reason, ...(over.advantage ? { advantage: over.advantage } : {}) };
}
