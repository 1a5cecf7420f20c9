// Makes the boards' next games in a worker thread: a game takes tens of milliseconds to make, and
// made on the boards' thread it would hold every other board's events back that long, several
// times a second when many boards play fast.
import { Worker } from 'node:worker_threads';
import type { SimulateGameOptions, SimulatedGame } from './game.ts';

type Reply = { id: number; game: SimulatedGame } | { id: number; error: string };

export class GamePool {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, (game: SimulatedGame | undefined, error?: Error) => void>();

  constructor() {
    // The thread loads the TypeScript sources itself (game-thread.js), whoever started this one.
    this.worker = new Worker(new URL('./game-thread.js', import.meta.url), { execArgv: [] });
    this.worker.on('message', (reply: Reply) => {
      const done = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ('error' in reply) done?.(undefined, new Error(reply.error));
      else done?.(reply.game);
    });
    this.worker.on('error', (e) => this.settleAll(e));
  }

  make(options: SimulateGameOptions): Promise<SimulatedGame | undefined> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (game, error) => (error ? reject(error) : resolve(game)));
      this.worker.postMessage({ id, options });
    });
  }

  /** Ends the thread; games still being made come back as none. */
  async stop(): Promise<void> {
    this.settleAll();
    await this.worker.terminate();
  }

  private settleAll(error?: Error): void {
    for (const done of this.waiting.values()) done(undefined, error);
    this.waiting.clear();
  }
}
