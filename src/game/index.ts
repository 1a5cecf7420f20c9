// The game record: tracker outputs → versioned GameEvents, snapshots, lidraughts-ready PDN. Pure.
export * from './actions.ts';
export { drawRulesFor, type GameEnd, gameEnd } from './end.ts';
export { alertComment, gamesToPdn, gameToPdn, type PdnView, pdnGameOf, tagValue } from './pdn.ts';
export { moverOf } from './line.ts';
export { GameRecord } from './record.ts';
export type * from './types.ts';
