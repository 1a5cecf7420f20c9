// Moves WAL checkpoints off the daemon's event loop: a thread with its own connection copies the
// WAL back into the database file every second. A checkpoint syncs the disk; run by the commit
// that crossed SQLite's limit, it held up every board's events for up to 10 ms. PASSIVE never
// blocks the writer, and the writer restarts the WAL once a checkpoint has caught up.
import { Worker } from 'node:worker_threads';

const WORKER = new URL('./checkpoint-worker.js', import.meta.url);

export class Checkpointer {
  private readonly worker: Worker;
  private stopped = false;

  constructor(path: string, onFailure: (error: Error) => void, everyMs = 1000) {
    // No --import tsx in the thread: it runs plain JavaScript.
    this.worker = new Worker(WORKER, { workerData: { path, everyMs }, execArgv: [] });
    this.worker.unref();
    // Only the thread's end sends checkpoints back to the commits: one that failed (a full disk)
    // is tried again a second later by the thread, as the commits' own would fail the same way.
    this.worker.on('error', (e) => {
      if (!this.stopped) onFailure(e);
    });
  }

  /** The thread closes its connection and ends; the daemon does not wait for it. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage('stop');
  }
}
