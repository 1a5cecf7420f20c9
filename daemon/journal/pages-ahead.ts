// A round's pages read ahead in a thread of its own (page-worker.js) while the rebuild applies the
// ones before: on a start, SQLite's part of reading the journal no longer waits on the event loop's
// thread. Handed over synchronously (the rebuild is one synchronous pass): the rebuild waits on a
// shared counter and takes the page from the port. A thread that fails, or is late past
// LATE_MS, leaves the rest of the round to the caller's own reads, from the page it stopped at.
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

const WORKER = new URL('./page-worker.js', import.meta.url);
/** Pages read ahead of the one being applied: a few megabytes of text at most. */
const AHEAD = 4;
/** A page not handed over within this long: the thread is taken as lost. */
const LATE_MS = 5000;

/** A page: the last id, the rows, and their JSON text (see Journal.forEachRoundInput). */
export type Page = [number | null, number, string | null];

export class PagesAhead {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flow = new Int32Array(new SharedArrayBuffer(8));
  /** Messages taken (pages, or the thread's failure): what the thread counts against AHEAD. */
  private taken = 0;
  private handed = 0;
  private lost = false;

  private constructor(
    path: string,
    sql: string,
    args: unknown[],
    /** Rows a page: the pass that takes the pages reads the same. */
    readonly page: number,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER, {
      workerData: { path, sql, args, page, port: port2, flow: this.flow, ahead: AHEAD },
      transferList: [port2],
      // No --import tsx in the thread: it runs plain JavaScript.
      execArgv: [],
    });
    this.worker.unref();
    // A thread that could not start hands nothing over: next() finds it late.
    this.worker.on('error', () => {});
  }

  /** A reader of the pages of `sql` (its arguments `args`, then after-id and page size). */
  static start(path: string, sql: string, args: unknown[], page: number): PagesAhead | undefined {
    try {
      return new PagesAhead(path, sql, args, page);
    } catch {
      return undefined;
    }
  }

  /** The next page, or undefined once the thread failed or was late (the caller reads it). */
  next(): Page | undefined {
    if (this.lost) return undefined;
    const deadline = performance.now() + LATE_MS;
    let message = receiveMessageOnPort(this.port);
    while (!message) {
      const left = deadline - performance.now();
      if (left <= 0) return this.lose();
      Atomics.wait(this.flow, 0, this.taken, left);
      message = receiveMessageOnPort(this.port);
    }
    this.taken++;
    Atomics.store(this.flow, 1, this.taken);
    Atomics.notify(this.flow, 1);
    const { row } = message.message as { row?: Page; error?: string };
    if (!row) return this.lose();
    this.handed++;
    return row;
  }

  /** Pages the thread handed over and the caller took. */
  get pages(): number {
    return this.handed;
  }

  /** The thread failed or was late: the pages from then on were the caller's to read. */
  get failed(): boolean {
    return this.lost;
  }

  close(): void {
    this.port.close();
    void this.worker.terminate();
  }

  private lose(): undefined {
    this.lost = true;
    this.close();
    return undefined;
  }
}
