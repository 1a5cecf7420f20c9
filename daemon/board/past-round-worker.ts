// The thread of past-rounds.ts: rebuilds a past round's games from the journal (a read-only
// connection of its own; the replay and its searches as the daemon would run them) and answers
// them as JSON text, so that none of the work is done on the daemon's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { createTracker } from '../../src/tracker/index.ts';
import { Journal } from '../journal/index.ts';
import type { ReplaySettings } from '../../src/game/board-game.ts';
import { playedWith, replayRound } from './replay.ts';
import { searchMemoOf } from './search-memo.ts';

export interface RebuildRequest {
  round: number;
}
export type RebuildAnswer = { round: number; json: string } | { round: number; error: string };

const { path, rules } = workerData as { path: string; rules: Omit<ReplaySettings, 'createTracker'> };
const journal = Journal.open(path, { readonly: true });

parentPort!.on('message', ({ round }: RebuildRequest) => {
  let answer: RebuildAnswer;
  try {
    // The searches' results as the journal has them now (a replay takes their steps and answers).
    const searchMemo = searchMemoOf(journal.searchRows());
    const settings = playedWith(journal, round, {
      ...rules,
      createTracker: (o) => createTracker({ ...o, searchMemo }),
    });
    const games = replayRound(journal, round, settings).map((g) => g.record.snapshot());
    answer = { round, json: JSON.stringify(games) };
  } catch (e) {
    answer = { round, error: (e as Error).message };
  }
  parentPort!.postMessage(answer);
});
