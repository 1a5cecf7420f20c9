// The pure ground-truth generator: one game as a person plays it on a sensor board — the sensor
// events with human timing, the intended moves (path and capture order), the game as PDN, and the
// irregularities injected on request (docs/irregularities.md). No timers, no clock reads, seeded
// randomness only: the same options give the same game.
import type { BoardEvent, PieceCode, Side } from '../firmware-protocol/events.ts';
import {
  advance,
  type GameResult,
  type GameState,
  legalMoves,
  legalSequences,
  type Move,
  moveKey,
  moveNotation,
  type PdnGame,
  Position,
  parsePdn,
  play,
  resolveMove,
  startGame,
  type Variant,
  writeFen,
  writePdnGame,
} from '../src/engine/index.ts';
import type { RuleId } from '../src/tracker/types.ts';
import { type ClockSettings, DEFAULT_CLOCK, pressClock, readClock, startClock } from './clock.ts';
import { type Delay, DELAYS, type HandHabits, Hands, NOISE_PROFILES, type Noise } from './human.ts';
import { planTwoMoves, putBack, takeBack } from './after-move.ts';
import { MOVE_INJECTORS } from './inject.ts';
import { type PlyContext, type Played, playNormally } from './inject-steps.ts';
import { createRng, type Rng } from './prng.ts';
import { type ScanReports, scanReported } from './scan-board.ts';
import { chooseMove } from './selfplay.ts';
import { Timeline } from './timeline.ts';

export type { GameResult } from '../src/engine/index.ts';

export interface SimulateGameOptions {
  seed: number;
  variant?: Variant;
  /** The game to play: move texts (`32-28`, `19x28`), one game's PDN text, or a parsed PDN game.
   * Self-played when absent. */
  moves?: readonly string[] | string | PdnGame;
  /** Stop after this many plies (self-play default 160; a scripted game plays all its moves). */
  maxPlies?: number;
  noise?: Noise;
  /** Irregularities to inject (rule ids of src/tracker/types.ts, shapes of docs/irregularities.md). */
  inject?: readonly RuleId[];
  /** Chance per ply that one of `inject` happens (default 0.1); 5.1 is decided once per game with it. */
  injectProbability?: number;
  /** How often each rule may be injected in one game (default 1). */
  injectPerRule?: number;
  /** Chance that the players correct an irregular move on the board rather than play on (default 0.3). */
  correctProbability?: number;
  /** Put the kings in the centre to show the result after the last move (piece-sensing boards). */
  resultGesture?: boolean;
  /** The board only senses occupancy: puts carry no piece, snapshots use `o`. */
  occupancyOnly?: boolean;
  /** Time of the first event (ms, default 0). */
  startT?: number;
  /** Habits of real hands (simulator/human.ts), off unless asked for. */
  habits?: HandHabits;
  /** The board reports by scans, in its scan order (simulator/scan-board.ts); absent: as changes happen. */
  scanReports?: ScanReports;
  /** Median thinking time per move (ms, default 2500). */
  thinkMs?: number;
  clock?: ClockSettings;
  /** The board as the previous game left it (physical board string): the players first set up the
   * start position by hand (lifts, then puts). Without it the game starts with a snapshot. */
  setupFrom?: string;
}

export interface SimulatedMove {
  ply: number;
  side: Side;
  /** The move as played by the hand: path and capture order (for an irregular move, what the board
   * showed, read the way docs/irregularities.md reads it). */
  move: Move;
  /** PDN text: the engine's notation, or `from-to` / `fromxto` for an irregular move. */
  pdn: string;
  /** The rule the tracker marks the move with (R in docs/irregularities.md). */
  irregular?: RuleId;
  /** When the move was complete (the clock press). */
  t: number;
  fenAfter: string;
}

export interface InjectedIrregularity {
  rule: RuleId;
  ply: number;
  side: Side;
  /** When the irregular action began. */
  t: number;
}

export interface SimulatedGame {
  seed: number;
  variant: Variant;
  occupancyOnly: boolean;
  startFen: string;
  events: BoardEvent[];
  /** The moves of the game as the tracker should record them (taken-back moves are not here). */
  moves: SimulatedMove[];
  pdn: string;
  injected: InjectedIrregularity[];
  result: GameResult;
  /** The kings-in-the-centre gesture, when shown. */
  gesture?: { t: number; result: Exclude<GameResult, '*'> };
  /** The board stood turned 180° (5.1): every square in `events` is N+1−s of the game's square. */
  rotated: boolean;
  /** Time of the last event. */
  endT: number;
  /** The pieces physically on the board at the end (real colours, even on occupancy-only boards). */
  finalBoard: string;
  /** The board reported by scans (`events` are its reports, not the hands' changes). */
  scanReports?: ScanReports;
}

const DEFAULT_SELF_PLAY_PLIES = 160;
const span = (min: number, max: number): Delay => ({ median: (min + max) / 2, min, max });
/** Centre squares for the result gesture. */
const CENTRE: Record<Variant, [number, number]> = { international: [23, 28], brazilian: [15, 18] };
/**
 * The irregularities read from the order of the hands' changes, from what came before the press,
 * or from a board shown for the settle time: what a board that reports by scans proves only when
 * each change has a scan of its own.
 */
const BY_ORDER: readonly RuleId[] = [
  '4.11',
  '5.4.10',
  '5.4.13',
  '5.4.3',
  '5.4.7',
  '5.4.11',
  '5.4.12',
  '5.4.14',
  '5.4.4',
  '5.4.1',
];
/** Plies left without any injection after one, so each irregularity stands on its own. */
const QUIET_AFTER_INJECTION = 2;

/** Picks which of the equivalent capture sequences (paths, orders) the player's hand follows. */
function sequenceFor(pos: Position, move: Move, rng: Rng): Move {
  if (move.captured.length === 0) return move;
  const key = moveKey(move);
  const options = legalSequences(pos).filter((m) => moveKey(m) === key);
  return options.length > 0 ? rng.pick(options) : move;
}

interface Script {
  start: Position;
  texts: readonly string[];
  result?: GameResult;
}

function scriptOf(moves: SimulateGameOptions['moves'], variant: Variant): Script | undefined {
  if (moves === undefined) return undefined;
  if (typeof moves !== 'string' && !Array.isArray(moves)) {
    const game = moves as PdnGame;
    return { start: game.start, texts: game.moves.map((m) => m.notation), result: game.result };
  }
  if (Array.isArray(moves)) return { start: Position.initial(variant), texts: moves };
  const parsed = parsePdn(moves as string, { variant });
  const game = parsed.games[0];
  if (!game) throw new Error(`no game in the PDN: ${parsed.errors[0]?.message ?? 'empty'}`);
  if (game.errors.length > 0) throw new Error(`PDN line ${game.errors[0].line}: ${game.errors[0].message}`);
  return scriptOf(game, game.variant);
}

const rotateBoard = (b: string): string => [...b].reverse().join('');

/** The events as a board turned 180° reports them (5.1). */
function turned(events: readonly BoardEvent[], n: number): BoardEvent[] {
  return events.map((e) => {
    if (e.type === 'lift' || e.type === 'put') return { ...e, square: n + 1 - e.square };
    if (e.type === 'snapshot') return { ...e, board: rotateBoard(e.board) };
    return e;
  });
}

export function simulateGame(opts: SimulateGameOptions): SimulatedGame {
  const rng = createRng(opts.seed);
  const choiceRng = rng.fork(1);
  const handRng = rng.fork(2);
  const injectRng = rng.fork(3);
  const script = scriptOf(opts.moves, opts.variant ?? 'international');
  const variant = script?.start.variant ?? opts.variant ?? 'international';
  const noise = NOISE_PROFILES[opts.noise ?? 'realistic'];
  const clockSettings = opts.clock ?? DEFAULT_CLOCK;
  const thinkMs = opts.thinkMs ?? 2500;
  const occupancyOnly = opts.occupancyOnly ?? false;
  const maxPlies = opts.maxPlies ?? (script ? script.texts.length : DEFAULT_SELF_PLAY_PLIES);
  const drawRules = { profile: variant === 'brazilian' ? ('fmjd-64' as const) : ('fmjd' as const) };
  const startPos = script?.start ?? Position.initial(variant);
  const n = startPos.squareCount;
  const inject = opts.inject ?? [];
  const injectP = opts.injectProbability ?? 0.1;
  const perRule = opts.injectPerRule ?? 1;
  const correctP = opts.correctProbability ?? 0.3;
  const startT = opts.startT ?? 0;

  // 5.1: the whole game is played on a board turned 180°; the hands work in game squares and the
  // events are turned at the end.
  const rotated = inject.includes('5.1') && !occupancyOnly && injectRng.chance(injectP);
  const setupFrom = opts.setupFrom && rotated ? rotateBoard(opts.setupFrom) : opts.setupFrom;
  const tl = new Timeline(startT, setupFrom ?? startPos.toBoardString(), occupancyOnly);
  const hands = new Hands(tl, handRng, noise, variant, opts.habits, rng.fork(4));
  // On a board that reports by scans an irregularity read from the hands' order is shown so that the
  // scans can prove it: its changes, and the press after it, each in a scan of their own.
  const provableMs = opts.scanReports ? opts.scanReports.scanMs + 60 : 0;
  const provable = (rule: RuleId | undefined) => (rule && BY_ORDER.includes(rule) ? provableMs : 0);
  // The quickest a player moves after a board was set: on a board that reports by scans that board
  // must be seen settled first (a scan late, then a settle time that is a scan longer).
  const quickest = opts.scanReports ? 2 * opts.scanReports.scanMs + 150 : 300;
  if (setupFrom) hands.setUp(startPos.toBoardString());
  else tl.snapshot();
  let clock = startClock(clockSettings, tl.t, startPos.turn);
  tl.clock(clock.white, clock.black, clock.running);

  const moves: SimulatedMove[] = [];
  const injected: InjectedIrregularity[] = rotated
    ? [{ rule: '5.1', ply: 1, side: startPos.turn, t: startT }]
    : [];
  const used = new Map<RuleId, number>();
  let quiet = 0;
  let state: GameState = startGame(startPos, drawRules);
  const history: GameState[] = [];
  let result: GameResult = '*';
  /** After an irregular move: the board before it, which the next reply must not bring back. */
  let undoing: string | undefined;

  /** A board as the sensors see it (occupancy-only boards cannot tell pieces apart). */
  const sensed = (board: string) => (occupancyOnly ? board.replace(/[wbWB]/g, 'o') : board);
  /** The game's positions so far, as the sensors see them. */
  const seenBoards = () =>
    new Set([
      ...history.map((h) => sensed(h.position.toBoardString())),
      sensed(state.position.toBoardString()),
    ]);

  /** An injection for this moment, if the dice say so and one applies. */
  const pickRule = (candidates: readonly RuleId[]): RuleId[] => {
    if (quiet > 0 || inject.length === 0 || !injectRng.chance(injectP)) return [];
    const open = candidates.filter((r) => inject.includes(r) && (used.get(r) ?? 0) < perRule);
    return injectRng.shuffle(open);
  };
  const note = (rule: RuleId, ply: number, side: Side, t: number) => {
    injected.push({ rule, ply, side, t });
    used.set(rule, (used.get(rule) ?? 0) + 1);
    quiet = QUIET_AFTER_INJECTION;
  };

  for (let ply = moves.length + 1; ; ply = moves.length + 1) {
    if (ply > 1 && quiet > 0) quiet--;
    const pos = state.position;
    if (state.over) {
      result = state.over.result;
      break;
    }
    if (ply > maxPlies) {
      result = script ? (script.result ?? '*') : '1-1';
      break;
    }
    const text = script?.texts[ply - 1];
    let chosen: Move | undefined;
    if (script) {
      if (text === undefined) break;
      const r = resolveMove(pos, text);
      if (!r.ok) throw new Error(`move ${ply} (${text}): ${r.error.message}`);
      chosen = r.value;
    } else {
      // Right after an irregular move, a reply that puts the board back where it was before it
      // reads as the players' correction (docs/irregularities.md): the opponent plays on instead.
      const undo = undoing;
      const restores =
        undo === undefined ? undefined : (m: Move) => sensed(play(pos, m).toBoardString()) === undo;
      chosen = chooseMove(pos, ply, choiceRng, undefined, restores);
    }
    if (!chosen) break;
    const side = pos.turn;
    const legal = legalMoves(pos);
    // Thinking: quicker in the opening.
    hands.pause({
      median: thinkMs * (ply <= 6 ? 0.4 : 1),
      min: quickest,
      max: Math.max(quickest, thinkMs * 6),
    });
    const ctx: PlyContext = {
      pos,
      ply,
      legal,
      intended: sequenceFor(pos, chosen, handRng),
      hands,
      rng: injectRng,
      isEarlier: (board) => seenBoards().has(sensed(board)),
    };

    let played: Played | undefined;
    let injectedNow: RuleId | undefined;
    const moveRules = pickRule(MOVE_INJECTORS.filter((i) => !(script && i.altersGame)).map((i) => i.rule));
    // Of the rules that can happen here, the least injected so far: rules that need a rare position
    // (a capture of three pieces for 4.11) get their turn when it comes.
    const options = moveRules.flatMap((rule) => {
      const injector = MOVE_INJECTORS.find((i) => i.rule === rule);
      const run = injector?.plan(ctx);
      return injector && run ? [{ rule, run, rarity: injector.rarity }] : [];
    });
    options.sort((a, b) => (used.get(a.rule) ?? 0) - (used.get(b.rule) ?? 0) || b.rarity - a.rarity);
    for (const option of options) {
      const checkpoint = tl.checkpoint();
      const t = tl.t;
      const result = hands.atLeast(provable(option.rule), option.run);
      // An irregular result that the sensors cannot tell from an earlier position would read as a
      // takeback: undo it and try the next rule.
      const legalResult =
        legal.some((m) => moveKey(m) === moveKey(result.move)) && result.after.equals(play(pos, result.move));
      if (!legalResult && seenBoards().has(sensed(result.after.toBoardString()))) {
        tl.restore(checkpoint);
        continue;
      }
      played = result;
      injectedNow = option.rule;
      note(option.rule, ply, side, t);
      break;
    }
    played ??= playNormally(ctx);
    const playedNow = played;
    const legalResult =
      legal.some((m) => moveKey(m) === moveKey(playedNow.move)) &&
      playedNow.after.equals(play(pos, playedNow.move));
    if (playedNow.irregular && !legalResult && injectRng.chance(correctP)) {
      // The players correct it (5.4): S presses, the board is put back, S plays a legal move.
      hands.atLeast(provable(injectedNow), () => hands.pause(DELAYS.beforePress));
      tl.press(side);
      putBack(hands, pos);
      // A board that reports by scans must show the board put back settled before the move.
      if (opts.scanReports) hands.pause(span(quickest, quickest + 500));
      played = playNormally(ctx, { noAdjust: true });
    }

    hands.atLeast(provable(injectedNow), () => hands.pause(DELAYS.beforePress));
    tl.press(side);
    clock = pressClock(clock, side, tl.t, clockSettings);
    const shown = readClock(clock, tl.t);
    tl.clock(shown.white, shown.black, shown.running);
    moves.push({
      ply,
      side,
      move: played.move,
      pdn: played.pdn,
      ...(played.irregular ? { irregular: played.irregular } : {}),
      t: tl.t,
      fenAfter: writeFen(played.after),
    });
    history.push(state);
    // A legal move continues the game (draw counters and all); anything else restarts the counting
    // from what is physically on the board.
    const legalPlayed =
      legal.some((m) => moveKey(m) === moveKey(played.move)) && played.after.equals(play(pos, played.move));
    state = legalPlayed ? advance(state, played.move) : startGame(played.after, drawRules);
    undoing = legalPlayed ? undefined : sensed(pos.toBoardString());

    // After the press: 5.4.4 takeback (ply ≥ 2, back to the position before) or 5.4.1 (S again).
    if (!played.irregular && !state.over) {
      for (const rule of pickRule(['5.4.4', '5.4.1'])) {
        if (rule === '5.4.4' && ply >= 2) {
          const t = tl.t;
          hands.atLeast(provable(rule), () => takeBack(hands, pos, played.move));
          note('5.4.4', ply, side, t);
          moves.pop();
          state = history.pop()!;
          break;
        }
        if (rule === '5.4.1') {
          const run = planTwoMoves(hands, state.position, (board) => seenBoards().has(sensed(board)));
          if (!run) continue;
          const t = tl.t;
          const accepted = injectRng.chance(0.5);
          const { move: second, again } = hands.atLeast(provable(rule), () => run(!accepted));
          note('5.4.1', ply + 1, side, t);
          if (accepted) {
            // O plays on from the board as it stands: S's second move stays in its ply (5.7).
            const physical = play(again, second);
            moves.push({
              ply: ply + 1,
              side,
              move: second,
              pdn: moveNotation(again, second),
              irregular: '5.4.1',
              t: tl.t,
              fenAfter: writeFen(physical),
            });
            history.push(state);
            state = startGame(physical, drawRules);
            undoing = sensed(state.position.withTurn(side).toBoardString());
          }
          break;
        }
      }
    }
  }
  if (result === '*' && state.over) result = state.over.result;
  if (result !== '*') {
    // The players stop the clock when the game is over.
    hands.pause(span(800, 2500));
    const stopped = readClock(clock, tl.t);
    tl.clock(stopped.white, stopped.black, null);
  }

  let gesture: SimulatedGame['gesture'];
  if (opts.resultGesture && !occupancyOnly && result !== '*') {
    hands.pause(span(1500, 4000));
    gesture = { t: tl.t, result };
    const kings: PieceCode[] = result === '2-0' ? ['W', 'W'] : result === '0-2' ? ['B', 'B'] : ['W', 'B'];
    CENTRE[variant].forEach((sq, i) => {
      if (tl.pieceAt(sq)) {
        tl.lift(sq);
        hands.pause(span(200, 600));
      }
      tl.put(sq, kings[i]);
      hands.pause(span(200, 600));
    });
  }

  const pdn = writePdnGame({
    tags: {
      Event: 'damlink simulation',
      Site: 'damlink simulator',
      White: 'Simulated White',
      Black: 'Simulated Black',
      Seed: opts.seed,
    },
    startFen: writeFen(startPos),
    variant,
    moves: moves.map((m) => ({ text: m.pdn })),
    result,
  });
  const sent = rotated ? turned(tl.events, n) : tl.events;
  // The board as it stood before the first event, in the board's own squares.
  const firstBoard =
    opts.setupFrom ?? (rotated ? rotateBoard(startPos.toBoardString()) : startPos.toBoardString());
  return {
    seed: opts.seed,
    variant,
    occupancyOnly,
    startFen: writeFen(startPos),
    events: opts.scanReports ? scanReported(sent, firstBoard, opts.scanReports, rng.fork(5)) : sent,
    moves,
    pdn,
    injected,
    result,
    ...(gesture ? { gesture } : {}),
    rotated,
    endT: tl.t,
    finalBoard: rotated ? rotateBoard(tl.trueBoardString()) : tl.trueBoardString(),
    ...(opts.scanReports ? { scanReports: opts.scanReports } : {}),
  };
}
