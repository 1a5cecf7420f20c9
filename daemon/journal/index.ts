export type { AppendRequest, DerivedRecord, JournalOptions } from './journal.ts';
export { Journal } from './journal.ts';
export type { JournalEntry, JournalInput, RoundSettings } from './types.ts';
export type { BoardGameOptions, ReplaySettings, TrackerFactory } from './board-game.ts';
export { BoardGame, replayBoard, replayRound } from './board-game.ts';
export { derivedRecord } from './derived.ts';
