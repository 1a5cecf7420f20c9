export { configuredInfo } from './info.ts';
export { PastRounds } from './past-rounds.ts';
export { playedWith, replayBoard, replayRound, replaySettings } from './replay.ts';
export { searchMemoOf } from './search-memo.ts';
export { sensorEvents } from './sensor-events.ts';
