// A game's result as draughts writes it (White's score first; a win 2, a draw 1): the one
// declaration the engine, the record, the tracker, the tournament and the API use.

/** A finished game's score. */
export const FINAL_RESULTS = ['2-0', '1-1', '0-2'] as const;
export type FinalResult = (typeof FINAL_RESULTS)[number];

/** A game's result, `*` while it is not decided. */
export const GAME_RESULTS = [...FINAL_RESULTS, '*'] as const;
export type GameResult = (typeof GAME_RESULTS)[number];
