export type { BoardGameOptions, ReplaySettings, TrackerFactory } from './board-game.ts';
export { BoardGame, newBoardGame } from './board-game.ts';
export { derivedRecord } from './derived.ts';
export { HoldUpClock } from './hold-up-clock.ts';
export { configuredInfo } from './info.ts';
export { type LiveBoard, liveBoard } from './live-board.ts';
export { PastRounds } from './past-rounds.ts';
export { playedWith, rebuildLive, replayBoard, replayRound, replaySettings } from './replay.ts';
export { BoardTime, inputClock, watched } from './time.ts';
