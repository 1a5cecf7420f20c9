// The pure ground-truth generator: one game as a person plays it on a sensor board — the sensor
// events with human timing, the intended moves (path and capture order), the game as PDN, and the
// irregularities injected on request. No timers, no clock reads, seeded randomness only.
import type { BoardEvent, Side } from '../firmware-protocol/events.ts';
import type { RuleId } from '../src/tracker/types.ts';
import {
  legalMoves,
  legalSequences,
  type Move,
  moveKey,
  moveNotation,
  play,
  Position,
  resolveMove,
  type Variant,
  writeFen,
} from '../src/engine/index.ts';
import { type ClockSettings, DEFAULT_CLOCK, pressClock, readClock, startClock } from './clock.ts';
import { DELAYS, Hands, NOISE_PROFILES, type Noise } from './human.ts';
import { type GameResult, moveTextsOf, writePdn } from './pdn.ts';
import { createRng, type Rng } from './prng.ts';
import { chooseMove } from './selfplay.ts';
import { Timeline } from './timeline.ts';

export interface SimulateGameOptions {
  seed: number;
  variant?: Variant;
  /** The game to play: move texts (`32-28`, `19x28`) or one game's PDN. Self-played when absent. */
  moves?: readonly string[] | string;
  /** Stop after this many plies (self-play default 160; a scripted game plays all its moves). */
  maxPlies?: number;
  noise?: Noise;
  /** Irregularities to inject (rule ids, see docs/irregularities.md). */
  inject?: readonly RuleId[];
  /** Chance per ply that one of `inject` happens (default 0.1). Each rule at most once per game. */
  injectProbability?: number;
  /** Put the kings in the centre to show the result after the last move. */
  resultGesture?: boolean;
  /** The board only senses occupancy: puts carry no piece, snapshots use `o`. */
  occupancyOnly?: boolean;
  /** Time of the first event (ms, default 0). */
  startT?: number;
  /** Median thinking time per move (ms, default 2500). */
  thinkMs?: number;
  clock?: ClockSettings;
}

export interface SimulatedMove {
  ply: number;
  side: Side;
  /** The move as intended, with the path and capture order the hand used. */
  move: Move;
  /** PDN text of the move. */
  pdn: string;
  /** When the move was complete (the clock press). */
  t: number;
  fenAfter: string;
}

export interface InjectedIrregularity {
  rule: RuleId;
  ply: number;
  side: Side;
  t: number;
}

export interface SimulatedGame {
  seed: number;
  variant: Variant;
  occupancyOnly: boolean;
  startFen: string;
  events: BoardEvent[];
  moves: SimulatedMove[];
  pdn: string;
  injected: InjectedIrregularity[];
  result: GameResult;
  /** Time of the last event. */
  endT: number;
}

const DEFAULT_SELF_PLAY_PLIES = 160;
/** 6.2: 25 moves each with only kings moving and no capture. */
const KING_MOVES_DRAW_PLIES = 50;

/** Picks which of the equivalent capture sequences (paths, orders) the player's hand follows. */
function sequenceFor(pos: Position, move: Move, rng: Rng): Move {
  if (move.captured.length < 2) return move;
  const key = moveKey(move);
  return rng.pick(legalSequences(pos).filter((m) => moveKey(m) === key));
}

interface MoveSource {
  next(pos: Position, ply: number): Move | undefined;
}

function scriptedSource(texts: readonly string[]): MoveSource {
  return {
    next(pos, ply) {
      const text = texts[ply - 1];
      if (text === undefined) return undefined;
      const r = resolveMove(pos, text);
      if (!r.ok) throw new Error(`move ${ply} (${text}): ${r.error.message}`);
      return r.value;
    },
  };
}

const selfPlaySource = (rng: Rng): MoveSource => ({ next: (pos, ply) => chooseMove(pos, ply, rng) });

export function simulateGame(opts: SimulateGameOptions): SimulatedGame {
  const variant = opts.variant ?? 'international';
  const rng = createRng(opts.seed);
  const choiceRng = rng.fork(1);
  const handRng = rng.fork(2);
  const noise = NOISE_PROFILES[opts.noise ?? 'realistic'];
  const clockSettings = opts.clock ?? DEFAULT_CLOCK;
  const thinkMs = opts.thinkMs ?? 2500;
  const occupancyOnly = opts.occupancyOnly ?? false;
  const scripted =
    opts.moves === undefined
      ? undefined
      : typeof opts.moves === 'string'
        ? moveTextsOf(opts.moves)
        : opts.moves;
  const source = scripted ? scriptedSource(scripted) : selfPlaySource(choiceRng);
  const maxPlies = opts.maxPlies ?? (scripted ? scripted.length : DEFAULT_SELF_PLAY_PLIES);

  let pos = Position.initial(variant);
  const startFen = writeFen(pos);
  const tl = new Timeline(opts.startT ?? 0, pos.toBoardString(), occupancyOnly);
  const hands = new Hands(tl, handRng, noise, variant);
  tl.snapshot();
  let clock = startClock(clockSettings, tl.t);
  tl.clock(clock.white, clock.black, clock.running);

  const moves: SimulatedMove[] = [];
  const injected: InjectedIrregularity[] = [];
  let result: GameResult = '*';
  let quietKingPlies = 0;

  for (let ply = 1; ; ply++) {
    if (ply > maxPlies) {
      result = scripted ? '*' : '1-1';
      break;
    }
    const chosen = source.next(pos, ply);
    if (!chosen) {
      if (legalMoves(pos).length === 0) result = pos.turn === 'white' ? '0-2' : '2-0';
      break;
    }
    const side = pos.turn;
    const move = sequenceFor(pos, chosen, handRng);
    const legal = legalMoves(pos);
    hands.pause(thinkMs * (ply <= 6 ? 0.4 : 1));
    const crownLater = move.promotes && handRng.chance(noise.crownAfter);
    hands.carry(move, { crownLater });
    if (move.captured.length > 0) hands.removeAll(hands.removalOrder(move));
    if (crownLater) hands.crown(move.to);
    if (handRng.chance(noise.adjust)) {
      hands.pause(DELAYS.adjust);
      hands.liftAndReplace(move.to);
    }
    hands.pause(DELAYS.beforePress);
    tl.press(side);
    clock = pressClock(clock, side, tl.t, clockSettings);
    const shown = readClock(clock, tl.t);
    tl.clock(shown.white, shown.black, shown.running);
    const after = play(pos, move);
    moves.push({
      ply,
      side,
      move,
      pdn: moveNotation(pos, chosen, legal),
      t: tl.t,
      fenAfter: writeFen(after),
    });
    quietKingPlies =
      move.captured.length === 0 && (move.piece === 'W' || move.piece === 'B') ? quietKingPlies + 1 : 0;
    pos = after;
    if (!scripted && quietKingPlies >= KING_MOVES_DRAW_PLIES) {
      result = '1-1';
      break;
    }
  }
  if (legalMoves(pos).length === 0 && result === '*') result = pos.turn === 'white' ? '0-2' : '2-0';

  const pdn = writePdn({ variant, moves: moves.map((m) => m.pdn), result });
  return {
    seed: opts.seed,
    variant,
    occupancyOnly,
    startFen,
    events: tl.events,
    moves,
    pdn,
    injected,
    result,
    endT: tl.t,
  };
}
