// Republishing a past round: an event of 64 boards and three rounds (two past, one being played),
// a tournament of 128 players in the journal's SQLite file, published to a real OpenSSH sshd
// (internal-sftp) started here. Results are typed for the past rounds' tables, one every 300 ms
// while the current round's boards move; each is timed from the call to the moment the round's
// `games.pdn` on the server shows it. Prints `publish_past_round_p99_ms` (target ≤ 1500 ms) and
// its p50, with the daemon's default coalesce window (250 ms).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchPublishing } from './publishing.ts';
import { announcingChanges } from '../daemon/tournament/live.ts';
import { FINAL_RESULTS, type FinalResult, legalMoves, moveNotation } from '../src/engine/index.ts';
import type { GameSnapshot } from '../src/game/types.ts';
import {
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
  type Event,
  type PairingResult,
} from '../src/tournament/index.ts';
import { FakeHub } from '../test/daemon/fixtures/fake-hub.ts';
import { player, type Player } from '../test/src/game/fixtures/helpers.ts';
import { startSshd } from '../test/integration/fixtures/file-servers.ts';
import { removeTempDirs } from '../test/integration/fixtures/helpers.ts';
import { tempStore } from '../test/tournament/fixtures/helpers.ts';

const BOARDS = 64;
const ROUNDS = 3;
const RESULTS = Number(process.env.PUBLISH_RESULTS ?? 40);
const GAP_MS = 300;

const print = (name: string, value: string, unit = '') =>
  console.log(`${name} ${value}${unit ? ` ${unit}` : ''}`);
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

/** A hub of the current round whose past rounds are the games they ended with. */
class EventHub extends FakeHub {
  constructor(
    private readonly past: Map<number, GameSnapshot[]>,
    current: number,
  ) {
    super(BOARDS, current, { event: 'Bench Event' });
  }
  override hasRound(round: number): boolean {
    return this.past.has(round) || super.hasRound(round);
  }
  override games(round: number): GameSnapshot[] {
    return this.past.get(round) ?? super.games(round);
  }
}

/** `moves` plies on every board of a hub of `round`, its games as they stand. */
function played(round: number, moves: number): GameSnapshot[] {
  const hub = new FakeHub(BOARDS, round, { event: 'Bench Event' });
  for (let board = 1; board <= BOARDS; board++) {
    const p = player();
    for (let i = 0; i < moves; i++) {
      const legal = legalMoves(p.position);
      if (legal.length === 0) break;
      const m = legal[(board + i) % legal.length];
      hub.feed(board, p.move(moveNotation(p.position, m, legal), (i + 1) * 1000));
    }
  }
  return hub.games(round);
}

const past = new Map([1, 2].map((r) => [r, played(r, 40)]));
const hub = new EventHub(past, ROUNDS);
const temp = tempStore('publish-event');
const event: Event = {
  name: 'Bench Event',
  groups: [],
  players: Array.from({ length: 2 * BOARDS }, (_, i) => ({ start: i + 1, name: `Player ${i + 1}` })),
  rounds: Array.from({ length: ROUNDS }, (_, r) => ({
    number: r + 1,
    pairings: Array.from({ length: BOARDS }, (_, i) => ({
      table: i + 1,
      white: ((i + r * 7) % BOARDS) * 2 + 1,
      black: ((i + r * 7) % BOARDS) * 2 + 2,
    })),
    byes: [],
  })),
  points: DRAUGHTS_POINTS,
  tiebreaks: DEFAULT_TIEBREAKS,
  advantageDraws: false,
};
temp.store.save(event);

const ssh = await startSshd();
const publishing = benchPublishing(hub, ssh.target(), temp.store);
const access = announcingChanges(temp.store, () => publishing.changed());
const published = (round: number) => {
  try {
    return readFileSync(join(ssh.root, 'rounds', String(round), 'games.pdn'), 'utf8');
  } catch {
    return '';
  }
};
/** The table's game in a round's published PDN (board order: table n is the n-th game). */
const tableGame = (text: string, table: number) => text.split(/\n(?=\[Event )/)[table - 1] ?? '';

// Every round on the server first (the first upload carries them all).
const ready = Date.now() + 60_000;
while (![1, 2, 3].every((r) => published(r).includes('[Event ')) && Date.now() < ready)
  await new Promise((r) => setTimeout(r, 50));

const players: Player[] = Array.from({ length: BOARDS }, () => player());
const latencies: number[] = [];
let lost = 0;
let t = 0;
const scores = FINAL_RESULTS;
const typed = (score: FinalResult): PairingResult => ({ kind: 'game', score });
for (let n = 0; n < RESULTS; n++) {
  // The current round goes on meanwhile: a move on some board.
  const board = 1 + (n % BOARDS);
  const p = players[board - 1];
  const legal = legalMoves(p.position);
  if (legal.length > 0) hub.feed(board, p.move(moveNotation(p.position, legal[0], legal), ++t * 1000));
  const round = 1 + (n % 2);
  const table = 1 + ((n * 13) % BOARDS);
  // A result the table's published game does not show yet.
  const before = tableGame(published(round), table);
  const score = [n, n + 1]
    .map((k) => scores[k % scores.length])
    .find((s) => !before.includes(`[Result "${s}"]`))!;
  const at = performance.now();
  access.setResult(round, table, typed(score));
  const shows = `[Result "${score}"]`;
  const end = Date.now() + 10_000;
  while (!tableGame(published(round), table).includes(shows) && Date.now() < end)
    await new Promise((r) => setTimeout(r, 10));
  if (tableGame(published(round), table).includes(shows)) latencies.push(performance.now() - at);
  else lost++;
  await new Promise((r) => setTimeout(r, GAP_MS));
}
await publishing.stop();
await ssh.stop();
temp.close();
removeTempDirs();

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
print('publish_past_round_results', String(latencies.length), 'results');
if (lost > 0) print('publish_past_round_never_seen', String(lost), 'results');
print('publish_past_round_p50_ms', percentile(latencies, 50).toFixed(0), 'ms');
print('publish_past_round_p99_ms', percentile(latencies, 99).toFixed(0), 'ms');
process.exit(lost > 0 ? 1 : 0);
