// One target's uploads: a change waits `coalesceMs` so a burst of moves goes out together; only the
// files that differ from what the target last acknowledged are written; a failure waits firstMs,
// doubling up to maxMs, and the next try writes whatever is still behind (the files catch up).
import type { PublishFile, Uploader } from './types.ts';

export interface PublishTiming {
  coalesceMs: number;
  retry: { firstMs: number; maxMs: number };
  /** A file not written by then has failed (a server that stopped answering without closing). */
  timeoutMs: number;
}

export interface TargetState {
  target: string;
  /** Files of the round the target does not have yet. */
  pending: number;
  uploading: boolean;
  /** Wall clock (ms) when the target last held every file. */
  lastSuccess: number | null;
  lastError: { at: number; message: string } | null;
  /** Failed tries in a row (0 after a success). */
  failures: number;
  /** Wall clock (ms) of the next try after a failure. */
  retryAt: number | null;
}

export interface PublishLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export class TargetScheduler {
  private readonly acknowledged = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private changedWhileRunning = false;
  private stopped = false;
  private lastSuccess: number | null = null;
  private lastError: TargetState['lastError'] = null;
  private failures = 0;
  private retryAt: number | null = null;

  constructor(
    private readonly uploader: Uploader,
    private readonly files: () => readonly PublishFile[],
    private readonly timing: PublishTiming,
    private readonly log: PublishLog,
  ) {}

  /** Something in the round changed: upload soon (coalesced), or after the running upload/backoff. */
  changed(): void {
    if (this.stopped) return;
    if (this.running) {
      this.changedWhileRunning = true;
      return;
    }
    if (this.timer) return; // a coalesce window or a backoff is already waiting
    this.schedule(this.timing.coalesceMs);
  }

  state(): TargetState {
    return {
      target: this.uploader.label,
      pending: this.behind().length,
      uploading: this.running !== undefined,
      lastSuccess: this.lastSuccess,
      lastError: this.lastError,
      failures: this.failures,
      retryAt: this.retryAt,
    };
  }

  /** No more uploads: waits for the one in flight, then drops the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.uploader.close().catch(() => {});
  }

  private behind(): PublishFile[] {
    return this.files().filter((f) => this.acknowledged.get(f.path) !== f.body);
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.upload().finally(() => {
        this.running = undefined;
        if (this.changedWhileRunning && this.failures === 0) {
          this.changedWhileRunning = false;
          this.changed();
        }
      });
    }, ms);
  }

  /** One file, bounded by timeoutMs: past it the connection is dropped and the try has failed. */
  private async written(file: PublishFile): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const write = this.uploader.write(file);
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer in ${this.timing.timeoutMs} ms`)),
        this.timing.timeoutMs,
      );
    });
    try {
      await Promise.race([write, late]);
    } catch (e) {
      write.catch(() => {}); // a write given up on may still fail later
      await this.uploader.close().catch(() => {});
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  private async upload(): Promise<void> {
    try {
      const todo = this.behind();
      for (const file of todo) {
        if (this.stopped) return;
        await this.written(file);
        this.acknowledged.set(file.path, file.body);
      }
      this.lastSuccess = Date.now();
      this.retryAt = null;
      if (this.failures > 0) this.log.info({ target: this.uploader.label }, 'publish target caught up');
      this.failures = 0;
    } catch (e) {
      this.failures++;
      const message = (e as Error).message;
      this.lastError = { at: Date.now(), message };
      const wait = Math.min(this.timing.retry.maxMs, this.timing.retry.firstMs * 2 ** (this.failures - 1));
      this.retryAt = Date.now() + wait;
      this.changedWhileRunning = false;
      this.log.warn(
        { target: this.uploader.label, failures: this.failures, retryInMs: wait, err: message },
        'publish failed',
      );
      if (!this.stopped) this.schedule(wait);
    }
  }
}
