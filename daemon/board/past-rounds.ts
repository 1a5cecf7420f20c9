// The one cache of past rounds: a past round no longer changes, so its games are read once and
// kept — pollers of old rounds cannot make the daemon replay its journal on every request. Read
// from the games the journal keeps of the round (its daemon stopped, or it was rebuilt once);
// a round the journal does not keep (its daemon was killed) is rebuilt in a thread of its own,
// one round at a time, and kept in the journal, so that no reader's request runs a replay and its
// searches on the event loop: meanwhile the round answers RoundRebuilding. Bounded by the size of
// the rounds kept (the one asked for least recently goes first), not by their number, so that
// cycling through a tournament's rounds finds them all kept.
import { Worker } from 'node:worker_threads';
import type { GameSnapshot } from '../../src/game/types.ts';
import { RoundRebuilding } from '../hub.ts';
import type { Journal } from '../journal/index.ts';
import type { ReplaySettings } from '../../src/game/board-game.ts';
import type { RebuildAnswer } from './past-round-worker.ts';
import { playedWith, replayRound } from './replay.ts';

/** Bytes (of the rounds' JSON) of past rounds kept in memory. */
export const PAST_ROUNDS_BYTES = 64 << 20;

/** The worker module beside this one, as this one runs: compiled (bin/build.js) or from the sources. */
const WORKER = new URL(
  `./past-round-worker${import.meta.url.slice(import.meta.url.lastIndexOf('.'))}`,
  import.meta.url,
).href;

/**
 * The thread's start: from the sources, tsx registered in the thread first (`--import` is not
 * carried into threads by Node 20). A thread that fails or ends leaves its rounds to a replay on
 * the loop (they are not left waiting).
 */
const BOOT = WORKER.endsWith('.ts')
  ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => { register(); return import(${JSON.stringify(WORKER)}); });`
  : `import(${JSON.stringify(WORKER)});`;

export interface PastRoundsLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export class PastRounds {
  private readonly kept = new Map<number, { games: readonly GameSnapshot[]; bytes: number }>();
  private keptBytes = 0;
  private worker: Worker | undefined;
  /** Rounds waiting for the thread, the first being rebuilt. */
  private readonly queue: number[] = [];
  /** Rebuilds that failed, by round: answered by a replay here (the old way) rather than never. */
  private readonly failed = new Set<number>();
  private closed = false;

  constructor(
    private readonly journal: Journal,
    private readonly settings: ReplaySettings,
    private readonly options: { maxBytes?: number; log?: PastRoundsLog; offLoop?: boolean } = {},
  ) {}

  games(round: number): GameSnapshot[] {
    const hit = this.kept.get(round);
    if (hit) {
      // Map order is insertion order: the first key is the one asked for least recently.
      this.kept.delete(round);
      this.kept.set(round, hit);
      return [...hit.games];
    }
    const stored = this.journal.keptRound(round);
    if (stored) return [...this.keep(round, stored.games as GameSnapshot[], stored.bytes)];
    if (this.offLoop() && !this.failed.has(round)) {
      this.rebuild(round);
      throw new RoundRebuilding(round);
    }
    // The round's own rules win over today's.
    const games = replayRound(this.journal, round, playedWith(this.journal, round, this.settings)).map((g) =>
      g.record.snapshot(),
    );
    const json = JSON.stringify(games);
    this.journal.keepRoundGames(round, json);
    return [...this.keep(round, games, json.length)];
  }

  /** Rebuilds, in the background, every round of `rounds` the journal does not keep. */
  settle(rounds: readonly number[]): void {
    if (!this.offLoop()) return;
    for (const round of rounds) if (!this.journal.keepsRound(round)) this.rebuild(round);
  }

  /** Whether rounds are being rebuilt (for tests and /health). */
  get rebuilding(): readonly number[] {
    return [...this.queue];
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
  }

  private offLoop(): boolean {
    return (this.options.offLoop ?? true) && this.journal.path !== ':memory:' && !this.closed;
  }

  private keep(round: number, games: readonly GameSnapshot[], bytes: number): readonly GameSnapshot[] {
    const max = this.options.maxBytes ?? PAST_ROUNDS_BYTES;
    this.kept.set(round, { games, bytes });
    this.keptBytes += bytes;
    for (const [old, entry] of this.kept) {
      if (this.keptBytes <= max || old === round) break;
      this.kept.delete(old);
      this.keptBytes -= entry.bytes;
    }
    return games;
  }

  private rebuild(round: number): void {
    if (this.queue.includes(round)) return;
    this.queue.push(round);
    if (this.queue.length === 1) this.next();
  }

  private next(): void {
    const round = this.queue[0];
    if (round === undefined || this.closed) return;
    this.thread().postMessage({ round });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const { createTracker: _, ...rules } = this.settings;
    const worker = new Worker(BOOT, { eval: true, workerData: { path: this.journal.path, rules } });
    worker.unref();
    worker.on('message', (answer: RebuildAnswer) => this.answered(answer));
    const failed = (why: string) => {
      if (this.worker !== worker) return;
      this.options.log?.warn({ err: why }, 'past rounds: the rebuilding thread failed');
      this.worker = undefined;
      // Whatever was asked is answered by a replay here instead.
      for (const round of this.queue.splice(0)) this.failed.add(round);
    };
    worker.on('error', (e) => failed(e.message));
    worker.on('exit', (code) => failed(`exited with ${code}`));
    this.worker = worker;
    return worker;
  }

  private answered(answer: RebuildAnswer): void {
    if (this.closed) return;
    this.queue.shift();
    if ('error' in answer) {
      this.options.log?.warn({ round: answer.round, err: answer.error }, 'past rounds: rebuild failed');
      this.failed.add(answer.round);
    } else {
      const games = JSON.parse(answer.json) as GameSnapshot[];
      this.journal.keepRoundGames(answer.round, answer.json);
      this.keep(answer.round, games, answer.json.length);
      this.options.log?.info({ round: answer.round }, 'past round rebuilt from the journal');
    }
    this.next();
  }
}
