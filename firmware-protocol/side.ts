// The two sides of a game, as every layer names them: the players and their clock buttons, a
// position's turn, a piece's owner. Declared once; the engine, the protocols and the API take it.
export const SIDES = ['white', 'black'] as const;
export type Side = (typeof SIDES)[number];
