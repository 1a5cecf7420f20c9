// The tournament around the boards: an event, its players, its rounds of pairings and their
// results. Immutable values; every reader builds one, every writer and the standings read one.
import type { Side } from '../../firmware-protocol/side.ts';
import type { FinalResult } from '../engine/index.ts';
import type { ParseError, Result } from '../result.ts';

export type { Side } from '../../firmware-protocol/side.ts';

export interface Player {
  /** Starting rank (the pairing number): unique in the event, from 1. */
  start: number;
  /** "Last, First". */
  name: string;
  fmjdId?: string;
  rating?: number;
  federation?: string;
  club?: string;
  title?: string;
  /** `YYYY` or `YYYY/MM/DD`, as the source gave it. */
  birth?: string;
  sex?: string;
  /** The group (section) the player plays in; absent = the event's only group. */
  group?: string;
  /** Withdrew: the first round the player no longer plays (absent from it on, TRF `-`). */
  withdrawn?: number;
}

/** A finished game, from white's side; a draw may carry a lasting advantage (1+/1−, 6.5). */
export type GameScore = FinalResult;

export type PairingResult =
  | { kind: 'game'; score: GameScore; advantage?: Side }
  /** Not played: `winner` won by forfeit (+/−), or `none` when both were absent. */
  | { kind: 'forfeit'; winner: Side | 'none' };

export interface Pairing {
  /** Table number, from 1: boards are matched to tables. */
  table: number;
  white: number;
  black: number;
  /** Absent while the game is being played. */
  result?: PairingResult;
}

/**
 * A round without an opponent: `pairing` is the bye the pairing gives (TRF `U`), `full` and `half`
 * byes are requested ones (`F`, `H`), `zero` a zero-point bye (`Z`) and `absent` a player who did
 * not come (`-` without an opponent).
 */
export type ByeKind = 'pairing' | 'full' | 'half' | 'zero' | 'absent';

export interface Bye {
  player: number;
  kind: ByeKind;
}

export interface Round {
  number: number;
  pairings: readonly Pairing[];
  byes: readonly Bye[];
}

/** Points per result, on the draughts scale by default (a win 2). */
export interface PointSystem {
  win: number;
  draw: number;
  loss: number;
  /** A forfeit loss, both absent, a zero-point bye, an absence (TRF `A`). */
  forfeitLoss: number;
  /** The bye the pairing gives (TRF `P`). */
  pairingBye: number;
}

export const DRAUGHTS_POINTS: PointSystem = { win: 2, draw: 1, loss: 0, forfeitLoss: 0, pairingBye: 2 };
export const CHESS_POINTS: PointSystem = { win: 1, draw: 0.5, loss: 0, forfeitLoss: 0, pairingBye: 1 };

/** The tie-breaks that have a value per player (mutual result only orders a tied class). */
export const VALUED_TIEBREAKS = [
  'solkoff',
  'solkoff-truncated',
  'median',
  'sonneborn-berger',
  'wins',
  'plus-minus',
] as const;
export const TIEBREAKS = [...VALUED_TIEBREAKS, 'mutual'] as const;
export type Tiebreak = (typeof TIEBREAKS)[number];

export const DEFAULT_TIEBREAKS: readonly Tiebreak[] = TIEBREAKS;

export interface Event {
  name: string;
  city?: string;
  federation?: string;
  /** `YYYY/MM/DD` */
  startDate?: string;
  endDate?: string;
  chiefArbiter?: string;
  timeControl?: string;
  /** The groups (sections) in the order they are shown; empty = one group. */
  groups: readonly string[];
  players: readonly Player[];
  rounds: readonly Round[];
  /** Rounds planned (TRF `142`/`XXR`); the rounds played may be fewer. */
  plannedRounds?: number;
  /** The first colour of the top seed in round 1 (TRF `152`/`XXC`). */
  firstColour?: Side;
  points: PointSystem;
  tiebreaks: readonly Tiebreak[];
  /** Draws with advantage (1+/1−) are played: never in the 64 version. */
  advantageDraws: boolean;
}

/** A reader's answer: the value, or every problem found, each located. */
/** What the tournament's readers refuse (TRF, damlink's JSON, CSV, pairing programs' output, edits). */
export const TOURNAMENT_ERROR_CODES = [
  'trf-bad-header',
  'trf-bad-round',
  'trf-bad-start',
  'trf-bad-rating',
  'trf-bad-points',
  'trf-bad-rank',
  'trf-misaligned',
  'trf-pairing',
  'trf-advantage',
  'trf-duplicate-start',
  'tournament-json',
  'json-syntax',
  'csv-unclosed-quote',
  'no-name-column',
  'player-without-name',
  'bad-rating',
  'pairings-columns',
  'bad-table',
  'bad-start',
  'bad-result',
  'unknown-player',
  'same-player',
  'paired-twice',
  'duplicate-table',
  'control-character',
  'duplicate-start',
  'pairing-output',
  'pairing-edit',
  'pairing-program',
  'group',
  'short-row',
  'no-group',
] as const;
export type TournamentErrorCode = (typeof TOURNAMENT_ERROR_CODES)[number];
export type TournamentError = ParseError<TournamentErrorCode>;

export type Read<T> = Result<T, readonly TournamentError[]>;

/** What a player's record says of the person beyond the game: left out of what anyone may read. */
export const PERSONAL_FIELDS = ['birth', 'sex'] as const;

/** The event as the public reads it: the players without their birth dates and sex. */
export function withoutPersonalData(event: Event): Event {
  return {
    ...event,
    players: event.players.map((p) => {
      const { birth: _b, sex: _s, ...rest } = p;
      return rest;
    }),
  };
}
