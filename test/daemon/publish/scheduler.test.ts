// The publish scheduler with a recording uploader and fake timers: coalescing, only changed files,
// backoff doubling to its cap, and catching up after failures.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TargetScheduler } from '../../../daemon/publish/scheduler.ts';
import type { PublishFile, Uploader } from '../../../daemon/publish/types.ts';

const quiet = { info() {}, warn() {} };
const timing = { coalesceMs: 250, retry: { firstMs: 200, maxMs: 1000 }, timeoutMs: 2000 };

function setup() {
  let files: PublishFile[] = [
    { path: 'rounds/1/games.pdn', body: 'a' },
    { path: 'rounds/1/1.pdn', body: 'a' },
  ];
  const writes: Array<{ at: number; path: string; body: string }> = [];
  let failing = false;
  let slowMs = 0;
  let closed = 0;
  const uploader: Uploader = {
    label: 'test://x',
    async write(f) {
      if (slowMs) await new Promise((r) => setTimeout(r, slowMs));
      if (failing) throw new Error('connection refused');
      writes.push({ at: Date.now(), path: f.path, body: f.body });
    },
    async close() {
      closed++;
    },
  };
  const scheduler = new TargetScheduler(uploader, () => files, timing, quiet);
  return {
    scheduler,
    writes,
    set: (next: PublishFile[]) => {
      files = next;
    },
    fail: (on: boolean) => {
      failing = on;
    },
    slow: (ms: number) => {
      slowMs = ms;
    },
    closed: () => closed,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('publish scheduler', () => {
  it('coalesces a burst of changes into one upload, coalesceMs after the first', async () => {
    const s = setup();
    for (let i = 0; i < 10; i++) {
      s.scheduler.changed();
      await vi.advanceTimersByTimeAsync(20);
    }
    await vi.advanceTimersByTimeAsync(250);
    expect(s.writes.map((w) => [w.at, w.path])).toEqual([
      [250, 'rounds/1/games.pdn'],
      [250, 'rounds/1/1.pdn'],
    ]);
    expect(s.scheduler.state()).toMatchObject({ pending: 0, lastSuccess: 250, failures: 0 });
  });

  it('writes only the files that differ from what the target acknowledged', async () => {
    const s = setup();
    s.scheduler.changed();
    await vi.advanceTimersByTimeAsync(300);
    s.set([
      { path: 'rounds/1/games.pdn', body: 'b' },
      { path: 'rounds/1/1.pdn', body: 'a' },
    ]);
    expect(s.scheduler.state().pending).toBe(1);
    s.scheduler.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(s.writes.map((w) => `${w.path}=${w.body}`)).toEqual([
      'rounds/1/games.pdn=a',
      'rounds/1/1.pdn=a',
      'rounds/1/games.pdn=b',
    ]);
  });

  it('after failures waits firstMs, doubling up to maxMs; changes do not shorten it; then catches up', async () => {
    const s = setup();
    s.fail(true);
    s.scheduler.changed();
    const tries: number[] = [];
    for (let t = 0; t < 4000; t += 10) {
      const before = s.scheduler.state().failures;
      await vi.advanceTimersByTimeAsync(10);
      s.scheduler.changed();
      if (s.scheduler.state().failures > before) tries.push(Date.now());
    }
    // 250 (coalesced), +200, +400, +800, +1000 (the cap), +1000
    expect(tries).toEqual([250, 450, 850, 1650, 2650, 3650]);
    expect(s.scheduler.state()).toMatchObject({
      pending: 2,
      lastSuccess: null,
      lastError: { at: 3650, message: 'connection refused' },
      retryAt: 4650,
    });
    s.fail(false);
    s.set([
      { path: 'rounds/1/games.pdn', body: 'c' },
      { path: 'rounds/1/1.pdn', body: 'c' },
    ]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.writes.map((w) => `${w.at} ${w.path}=${w.body}`)).toEqual([
      '4650 rounds/1/games.pdn=c',
      '4650 rounds/1/1.pdn=c',
    ]);
    expect(s.scheduler.state()).toMatchObject({ pending: 0, failures: 0, retryAt: null, lastSuccess: 4650 });
  });

  it('a change during an upload goes out in a new upload after it', async () => {
    const s = setup();
    s.slow(100);
    s.scheduler.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(s.scheduler.state().uploading).toBe(true);
    s.set([
      { path: 'rounds/1/games.pdn', body: 'd' },
      { path: 'rounds/1/1.pdn', body: 'a' },
    ]);
    s.scheduler.changed();
    await vi.advanceTimersByTimeAsync(1000);
    // The first upload ends at 450 (two files, 100 ms each); the change goes out 250 ms later.
    expect(s.writes.map((w) => `${w.at} ${w.path}=${w.body}`)).toEqual([
      '350 rounds/1/games.pdn=a',
      '450 rounds/1/1.pdn=a',
      '800 rounds/1/games.pdn=d',
    ]);
  });

  it('a server that stops answering: the file fails after timeoutMs, the connection is dropped', async () => {
    const s = setup();
    s.slow(60_000);
    s.scheduler.changed();
    await vi.advanceTimersByTimeAsync(250 + 1999);
    expect(s.scheduler.state()).toMatchObject({ uploading: true, failures: 0 });
    await vi.advanceTimersByTimeAsync(1);
    expect(s.scheduler.state()).toMatchObject({
      uploading: false,
      failures: 1,
      lastError: { at: 2250, message: 'no answer in 2000 ms' },
      retryAt: 2450,
    });
    expect(s.closed()).toBe(1);
    s.slow(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(s.scheduler.state()).toMatchObject({ pending: 0, failures: 0, lastSuccess: 2450 });
  });

  it('stop: no upload after it', async () => {
    const s = setup();
    s.scheduler.changed();
    await s.scheduler.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.writes).toEqual([]);
  });
});
