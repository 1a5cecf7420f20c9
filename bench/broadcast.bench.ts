// `npm run bench -- broadcast`: what the round's published games cost (src/broadcast: every game
// replayed move by move from its start to check it is a legal line, then written). 64 boards of
// 100 plies with a clock reading after each move. Prints
// - `broadcast_round_cold_ms`: the whole round's games.pdn from nothing (a restart, a past round);
// - `broadcast_after_move_p50_ms` / `_p99_ms`: games.pdn after one move on one board, the others
//   cached (what each change costs the publisher and each poll);
// - `hall_pdn_game_ms`: one game written as the hall's record (no replay), for comparison.
import { legalMoves, moveNotation } from '../src/engine/index.ts';
import { GameRecord, gameToPdn } from '../src/game/index.ts';
import type { GameSnapshot } from '../src/game/types.ts';
import { PdnCache } from '../daemon/views/rounds.ts';
import { player, type Player } from '../test/src/game/fixtures/helpers.ts';
import { percentile, print } from './lines.ts';

const BOARDS = 64;
const PLIES = 100;

/** A deterministic pseudo-random sequence (the same round every run). */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const random = lcg(11);
const boards: Array<{ record: GameRecord; p: Player; t: number }> = Array.from(
  { length: BOARDS },
  (_, i) => ({
    record: new GameRecord({
      info: { board: i + 1, round: 1, variant: 'international', white: `W${i}`, black: `B${i}` },
    }),
    p: player(),
    t: 0,
  }),
);

/** One legal move on the board, then the clock reading after it; false when the game is over. */
function step(b: (typeof boards)[number]): boolean {
  const legal = legalMoves(b.p.position);
  if (legal.length === 0) return false;
  const move = legal[Math.floor(random() * legal.length)];
  b.t += 3000;
  b.record.apply(b.p.move(moveNotation(b.p.position, move, legal), b.t));
  const white = b.p.ply % 2 === 0;
  b.record.clockEvent({
    type: 'clock',
    t: b.t + 50,
    white: 5_400_000 - b.t,
    black: 5_400_000 - b.t,
    running: white ? 'white' : 'black',
  });
  return true;
}

for (const b of boards) for (let i = 0; i < PLIES && step(b); i++);
const snapshots = (): GameSnapshot[] => boards.map((b) => b.record.snapshot());

// Warm-up, then the best of five cold rounds.
new PdnCache().round(snapshots());
const cold: number[] = [];
for (let i = 0; i < 5; i++) {
  const games = snapshots();
  const start = performance.now();
  new PdnCache()
    .round(games)
    .map((p) => p.text)
    .join('\n');
  cold.push(performance.now() - start);
}
print('broadcast_round_cold_ms', Math.min(...cold).toFixed(1), 'ms');

const cache = new PdnCache();
cache.round(snapshots());
const after: number[] = [];
for (let n = 0; n < 400; n++) {
  const b = boards[Math.floor(random() * BOARDS)];
  if (!step(b)) continue;
  const games = snapshots();
  const start = performance.now();
  cache
    .round(games)
    .map((p) => p.text)
    .join('\n');
  after.push(performance.now() - start);
}
print('broadcast_after_move_p50_ms', percentile(after, 50).toFixed(2), 'ms');
print('broadcast_after_move_p99_ms', percentile(after, 99).toFixed(2), 'ms');

const hall: number[] = [];
for (const g of snapshots()) {
  const start = performance.now();
  gameToPdn(g);
  hall.push(performance.now() - start);
}
print('hall_pdn_game_ms', percentile(hall, 50).toFixed(3), 'ms');
