// The log file, written so that it never holds the daemon up: lines queue in memory and go out by
// asynchronous writes. When the file cannot be written (disk full, I/O error) the lines wait,
// bounded, and are retried with backoff; past the bound they are dropped and counted, and a line
// says how many once writing works again (pino's own file destination retries ENOSPC forever in the
// flush it makes at exit: a full disk hung the daemon's exit, SIGTERM included).
import { closeSync, openSync, write, writeSync } from 'node:fs';

/** Bytes of log lines kept in memory while the file cannot be written. */
export const LOG_BUFFER_BYTES = 4 * 1024 * 1024;

export interface LogFileHealth {
  ok: boolean;
  /** Bytes waiting to be written. */
  queued: number;
  /** Lines dropped since the start because the buffer was full. */
  dropped: number;
  reason?: string;
  since?: number;
}

export class LogFile {
  private fd: number;
  private queue: string[] = [];
  /** The chunk being written, or the one that failed (written first on the retry). */
  private pending: Buffer | undefined;
  private bytes = 0;
  private writing = false;
  private reopenWanted = false;
  private failure: { reason: string; since: number } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = 100;
  private dropped = 0;
  private droppedUnsaid = 0;
  private closed = false;

  constructor(
    readonly path: string,
    private readonly maxBytes = LOG_BUFFER_BYTES,
  ) {
    this.fd = openSync(path, 'a', 0o600);
  }

  /** pino's stream interface: one line. */
  write(line: string): boolean {
    const size = Buffer.byteLength(line);
    if (this.bytes + size > this.maxBytes) {
      this.dropped++;
      this.droppedUnsaid++;
      return true;
    }
    this.queue.push(line);
    this.bytes += size;
    if (!this.writing && !this.failure) this.next();
    return true;
  }

  /** A new file at the same path (logrotate), once the write under way is done. */
  reopen(): void {
    if (this.writing) this.reopenWanted = true;
    else this.swapFile();
  }

  health(): LogFileHealth {
    const base = { ok: !this.failure, queued: this.bytes, dropped: this.dropped };
    return this.failure ? { ...base, reason: this.failure.reason, since: this.failure.since } : base;
  }

  /**
   * At exit: one synchronous try for what is queued, never a wait. A chunk already on its way is
   * left to its write; after a failure nothing is tried (the disk said no a moment ago).
   */
  flushOnExit(): void {
    if (this.failure || this.writing || this.queue.length === 0) return;
    try {
      writeSync(this.fd, this.queue.join(''));
      this.queue = [];
    } catch {
      // Exiting anyway.
    }
  }

  private next(): void {
    if (this.closed) return;
    if (this.reopenWanted) {
      this.reopenWanted = false;
      this.swapFile();
    }
    if (!this.pending) {
      if (this.queue.length === 0) {
        this.writing = false;
        return;
      }
      this.pending = Buffer.from(this.queue.join(''));
      this.queue = [];
    }
    this.writing = true;
    const chunk = this.pending;
    write(this.fd, chunk, 0, chunk.length, null, (err, n) => {
      if (err) {
        this.failed(err);
        return;
      }
      this.bytes -= n;
      this.pending = n < chunk.length ? chunk.subarray(n) : undefined;
      if (this.failure) this.recovered();
      this.next();
    });
  }

  private failed(err: NodeJS.ErrnoException): void {
    this.writing = false;
    if (this.closed) return;
    const reason = `${err.code ?? 'error'}: ${err.message}`;
    this.failure = { reason, since: this.failure?.since ?? Date.now() };
    this.retryTimer ??= setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.writing) this.next();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 5000);
  }

  private recovered(): void {
    this.failure = undefined;
    this.retryMs = 100;
    if (this.droppedUnsaid > 0) {
      const note = {
        level: 40,
        time: Date.now(),
        msg: `${this.droppedUnsaid} log lines dropped: the log file could not be written`,
      };
      this.droppedUnsaid = 0;
      // Past the bound if need be: one line, and the only trace of the lost ones.
      const line = `${JSON.stringify(note)}\n`;
      this.queue.push(line);
      this.bytes += Buffer.byteLength(line);
    }
  }

  private swapFile(): void {
    try {
      const fd = openSync(this.path, 'a', 0o600);
      closeSync(this.fd);
      this.fd = fd;
    } catch {
      // Keeps writing to the old file, better than none, and tries again before the next write.
      this.reopenWanted = true;
    }
  }

  close(): void {
    clearTimeout(this.retryTimer);
    this.flushOnExit();
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      // closed already
    }
  }
}
