// Game state with the draw rules of a per-tournament profile (docs/rules.md "Draws") and the result rule
// 7.2. Pure: `startGame` then `advance` once per move; each state says whether the game is over
// and shows the counters an arbiter would look at.
//
// Counting (each player's N moves = 2N plies):
// - 6.1 repetition: positions with the same side to move since the last man move or capture (only
//   those can repeat); the third occurrence draws.
// - 6.2 king moves: consecutive plies in which a king moved without capturing; a man move or any
//   capture resets it.
// - 6.3 / 6.4 (and the club endgames): plies since the material first fell into the rule's
//   class; it keeps counting while the class holds (a promotion from two kings and a man to three
//   kings stays in 6.3) and starts again in a new class (a capture turning 6.3 into 6.4). In the
//   64-square profile the main-diagonal condition is part of the class: it counts while it holds.
import { hasLegalMove } from './has-move.ts';
import { play } from './play.ts';
import type { Position } from './position.ts';
import type { Side, Move } from './types.ts';
import { isKing } from './types.ts';
import { geometry } from './variant.ts';

export type DrawProfileName = 'fmjd' | 'fmjd-64' | 'club';
export const DRAW_PROFILES: readonly DrawProfileName[] = ['fmjd', 'fmjd-64', 'club'];

export interface DrawRules {
  profile: DrawProfileName;
  /** 6.5: draws with advantage (1+/1−); 6.3 counts 25 moves instead of 16. Not in the 64 version. */
  advantageDraw?: boolean;
}

import type { FinalResult } from './result.ts';

export type { FinalResult } from './result.ts';

export interface GameOver {
  result: FinalResult;
  reason: string;
  /** The article or club rule: `7.2`, `6.1`…`6.4`, `club.kings-vs-king`… */
  rule: string;
  /** 6.5: the side at least three men ahead (a king counts two) when a draw with advantage applies. */
  advantage?: Side;
}

export interface EndgameCount {
  /** The rule whose count runs (`6.3`, `6.4`, `club.3-kings`…). */
  rule: string;
  /** Plies played since its material (and, in the 64 profile, diagonal condition) arose. */
  plies: number;
  /** Plies at which it draws. */
  limit: number;
  /** Distinguishes classes of one rule with different limits (64-square diagonal cases). */
  key: string;
}

export interface DrawCounters {
  /** 6.1: times the current position, same side to move, has stood on the board. */
  repetition: number;
  /** Hashes of the positions since the last man move or capture, current last. */
  history: readonly number[];
  /** 6.2: consecutive plies of king moves without capture. */
  kingOnlyPlies: number;
  /** 6.3 / 6.4 / club endgame count, when the material is in such a class. */
  endgame?: EndgameCount;
  /** club: plies since the material last changed (a capture or a promotion). */
  sameMaterialPlies: number;
}

export interface GameState {
  readonly rules: DrawRules;
  readonly position: Position;
  /** Plies played since the start. */
  readonly ply: number;
  readonly counters: DrawCounters;
  readonly over: GameOver | undefined;
}

interface Material {
  men: number;
  kings: number;
}

const material = (pos: Position, c: Side): Material => pos.count(c);
const only = (m: Material, kings: number, men: number) => m.kings === kings && m.men === men;
/** 6.5.2: a man counts one, a king two. */
const value = (m: Material) => m.men + 2 * m.kings;

/** The side at least three men ahead (6.5.2), if any. */
export function advantageOf(pos: Position): Side | undefined {
  const d = value(material(pos, 'white')) - value(material(pos, 'black'));
  return d >= 3 ? 'white' : d <= -3 ? 'black' : undefined;
}

/** The squares of the main diagonal (the long diagonal from White's bottom-left corner). */
function mainDiagonal(pos: Position): Set<number> {
  const g = geometry(pos.variant);
  const corner = g.squares - g.width / 2 + 1;
  return new Set([corner, ...g.rays[corner][1]]);
}

/** 6.3 class for the stronger side against a lone king: 3K, 2K+1m or 1K+2m. */
const is63 = (s: Material) => only(s, 3, 0) || only(s, 2, 1) || only(s, 1, 2);
/** 6.4 class: 2K, 1K+1m or 1K against a lone king. */
const is64 = (s: Material) => only(s, 2, 0) || only(s, 1, 1) || only(s, 1, 0);

// Module-level helpers (not closures in endgameClass): it runs on every ply of every game.
const loneKing = (m: Material) => only(m, 1, 0);
const kingAndMan = (m: Material) => only(m, 1, 1);
const twoOrOneKingsAndMan = (m: Material) => only(m, 2, 1) || only(m, 1, 1);
/** The side playing against a lone king, if any. */
const strongerOf = (w: Material, b: Material): Side | undefined =>
  loneKing(b) ? 'white' : loneKing(w) ? 'black' : undefined;

/** Which endgame count applies to `pos` under `rules` (without its running count). */
function endgameClass(pos: Position, rules: DrawRules): Omit<EndgameCount, 'plies'> | undefined {
  const w = material(pos, 'white');
  const b = material(pos, 'black');

  if (rules.profile === 'club') {
    const strong = strongerOf(w, b);
    if (strong) {
      const s = strong === 'white' ? w : b;
      if (only(s, 3, 0)) return { rule: 'club.3-kings', limit: 30, key: 'club.3-kings' };
      if (only(s, 4, 0)) return { rule: 'club.4-kings', limit: 10, key: 'club.4-kings' };
    }
    // Two or one kings and a man against a king and a man: the stronger side's 10th move.
    const a: Side | undefined =
      twoOrOneKingsAndMan(w) && kingAndMan(b)
        ? 'white'
        : twoOrOneKingsAndMan(b) && kingAndMan(w)
          ? 'black'
          : undefined;
    if (a) {
      // Symmetric (1K+1m each): the side to move now counts, as it reaches ten moves first.
      const stronger = kingAndMan(w) && kingAndMan(b) ? pos.turn : a;
      const limit = stronger === pos.turn ? 19 : 20;
      return { rule: 'club.10-moves', limit, key: `club.10-moves:${stronger}` };
    }
    return undefined;
  }

  const strong = strongerOf(w, b);
  if (!strong) return undefined;
  const s = strong === 'white' ? w : b;
  if (is64(s)) return { rule: '6.4', limit: 10, key: '6.4' };
  if (!is63(s)) return undefined;
  if (rules.profile === 'fmjd') {
    const moves = rules.advantageDraw ? 25 : 16;
    return { rule: '6.3', limit: 2 * moves, key: '6.3' };
  }
  // fmjd-64: 5 moves if the weaker side controls the main diagonal; 15 with three kings against
  // one when the stronger side holds it; otherwise 6.2 alone applies.
  const diagonal = mainDiagonal(pos);
  const onDiagonal = pos.pieces().filter(([sq]) => diagonal.has(sq));
  const weakOn = onDiagonal.some(([, p]) => (p === 'W' || p === 'B') && (p === 'W') === (strong === 'black'));
  const strongOn = onDiagonal.some(([, p]) => (p === 'W' || p === 'w') === (strong === 'white'));
  if (weakOn && !strongOn) return { rule: '6.3', limit: 10, key: '6.3:weaker-holds-diagonal' };
  if (only(s, 3, 0) && strongOn && !weakOn)
    return { rule: '6.3', limit: 30, key: '6.3:stronger-holds-diagonal' };
  return undefined;
}

function nextEndgame(
  prev: EndgameCount | undefined,
  pos: Position,
  rules: DrawRules,
): EndgameCount | undefined {
  const cls = endgameClass(pos, rules);
  if (!cls) return undefined;
  return prev && prev.key === cls.key ? { ...prev, plies: prev.plies + 1 } : { ...cls, plies: 0 };
}

const KING_MOVE_LIMIT: Record<DrawProfileName, number | undefined> = {
  fmjd: 50,
  'fmjd-64': 40,
  club: undefined,
};
const SAME_MATERIAL_LIMIT = 100;

function draw(pos: Position, rules: DrawRules, rule: string, reason: string): GameOver {
  const advantage = rules.advantageDraw && rules.profile !== 'fmjd-64' ? advantageOf(pos) : undefined;
  return { result: '1-1', reason, rule, ...(advantage ? { advantage } : {}) };
}

/** 7.2: the side to move loses with no piece left or no legal move. */
export function decisiveResult(pos: Position): GameOver | undefined {
  const side = pos.turn;
  const result: FinalResult = side === 'white' ? '0-2' : '2-0';
  const own = pos.count(side);
  if (own.men + own.kings === 0) return { result, reason: `${side} has no pieces left`, rule: '7.2' };
  if (!hasLegalMove(pos)) return { result, reason: `${side} cannot move`, rule: '7.2' };
  return undefined;
}

function judge(pos: Position, rules: DrawRules, c: DrawCounters): GameOver | undefined {
  const decisive = decisiveResult(pos);
  if (decisive) return decisive;
  if (c.repetition >= 3) {
    return draw(pos, rules, '6.1', `the same position with ${pos.turn} to move for the third time`);
  }
  if (rules.profile === 'club') {
    const w = material(pos, 'white');
    const b = material(pos, 'black');
    const kingsOnly = (m: Material) => m.men === 0 && (m.kings === 1 || m.kings === 2);
    if ((only(w, 1, 0) && kingsOnly(b)) || (only(b, 1, 0) && kingsOnly(w))) {
      return draw(pos, rules, 'club.kings-vs-king', 'one or two kings against one king');
    }
  }
  if (c.endgame && c.endgame.plies >= c.endgame.limit) {
    const moves = Math.ceil(c.endgame.limit / 2);
    return draw(pos, rules, c.endgame.rule, `${moves} moves each in this endgame without a win`);
  }
  const kingLimit = KING_MOVE_LIMIT[rules.profile];
  if (kingLimit !== undefined && c.kingOnlyPlies >= kingLimit) {
    return draw(pos, rules, '6.2', `${kingLimit / 2} moves each with kings only, no man moved, no capture`);
  }
  if (rules.profile === 'club' && c.sameMaterialPlies >= SAME_MATERIAL_LIMIT) {
    return draw(pos, rules, 'club.50-moves', '50 moves each without a change of material');
  }
  return undefined;
}

/** The state before the first move (the start position counts once for 6.1). */
export function startGame(position: Position, rules: DrawRules = { profile: 'fmjd' }): GameState {
  const endgame = nextEndgame(undefined, position, rules);
  const counters: DrawCounters = {
    repetition: 1,
    history: [position.hash],
    kingOnlyPlies: 0,
    ...(endgame ? { endgame } : {}),
    sameMaterialPlies: 0,
  };
  return { rules, position, ply: 0, counters, over: judge(position, rules, counters) };
}

/** The state after `move` (a legal move of `state.position`). A finished game stays finished. */
export function advance(state: GameState, move: Move): GameState {
  if (state.over) return state;
  const position = play(state.position, move);
  const prev = state.counters;
  const capture = move.captured.length > 0;
  const irreversible = capture || !isKing(move.piece);
  const history = irreversible ? [position.hash] : [...prev.history, position.hash];
  const repetition = history.filter((h) => h === position.hash).length;
  const endgame = nextEndgame(prev.endgame, position, state.rules);
  const counters: DrawCounters = {
    repetition,
    history,
    kingOnlyPlies: irreversible ? 0 : prev.kingOnlyPlies + 1,
    ...(endgame ? { endgame } : {}),
    sameMaterialPlies: capture || move.promotes ? 0 : prev.sameMaterialPlies + 1,
  };
  return {
    rules: state.rules,
    position,
    ply: state.ply + 1,
    counters,
    over: judge(position, state.rules, counters),
  };
}

/** Plays `moves` from `start`, stopping at the end of the game. */
export function replay(start: Position, moves: readonly Move[], rules?: DrawRules): GameState {
  let s = startGame(start, rules);
  for (const m of moves) {
    if (s.over) break;
    s = advance(s, m);
  }
  return s;
}
