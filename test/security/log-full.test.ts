// A log file that cannot be written (ENOSPC: the log is /dev/full) never stops the daemon, never
// blocks it and never holds up its exit; lines wait in a bounded buffer and are written, in order,
// once the file takes them again.
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LogFile } from '../../daemon/log-file.ts';
import {
  arbiterHealth,
  cleanBoards,
  cleanUp,
  onCleanup,
  servedGames,
  startDaemon,
  tempDir,
  until,
} from '../integration/fixtures/helpers.ts';

afterEach(cleanUp);

describe('a log file on a full disk', () => {
  it('the daemon serves the games, says so on /health, and stops on SIGTERM', async () => {
    const sim = await cleanBoards(2, { speed: 4, seed: 3, maxPlies: 12, thinkMs: 600 });
    const dataDir = tempDir('log-full');
    symlinkSync('/dev/full', join(dataDir, 'damlink.log'));
    const daemon = await startDaemon(
      sim.boards.map((b) => b.address),
      dataDir,
      ['--log-level', 'debug', '--time-scale', '4'],
    );
    onCleanup(() => daemon.stop('SIGKILL'));
    const health = await until(
      async () => {
        const res = await fetch(`${daemon.url}/health`);
        return res.status === 503
          ? ((await res.json()) as { reason: string; log: { ok: boolean } })
          : undefined;
      },
      15_000,
      '/health 503 for the log file',
    );
    expect(health.reason).toBe('log: failing');
    expect(health.log.ok).toBe(false);
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    expect((await arbiterHealth(daemon.url, token)).reason).toMatch(/log: ENOSPC/);
    await sim.done;
    const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
    await servedGames(daemon.url, truth, 15_000, 'the games served while the log cannot be written');
    const asked = Date.now();
    daemon.proc.kill('SIGTERM');
    const code = await Promise.race([daemon.exited, new Promise((r) => setTimeout(() => r('hung'), 8000))]);
    expect(code).toBe(0);
    expect(Date.now() - asked).toBeLessThan(8000);
  }, 90_000);

  it('keeps lines up to its bound, counts the rest, and writes them in order once it can', async () => {
    const dir = tempDir('log-file');
    const path = join(dir, 'damlink.log');
    symlinkSync('/dev/full', path);
    const file = new LogFile(path, 1000);
    onCleanup(async () => file.close());
    const lines = Array.from({ length: 40 }, (_, i) => `{"n":${i}}\n`);
    for (const line of lines) file.write(line);
    await until(() => file.health().ok === false, 2000, 'the write to fail');
    const failing = file.health();
    expect(failing.reason).toMatch(/^ENOSPC/);
    // 1000 bytes hold 111 of these 9–10-byte lines at most: all 40 fit, then some are dropped.
    for (let i = 40; i < 200; i++) file.write(`{"n":${i}}\n`);
    expect(file.health().dropped).toBeGreaterThan(0);
    expect(file.health().queued).toBeLessThanOrEqual(1000);

    rmSync(path);
    file.reopen();
    await until(
      () => file.health().ok && file.health().queued === 0,
      8000,
      'the lines written after the retry',
    );
    const written = readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { n?: number; msg?: string });
    const numbers = written.flatMap((l) => (l.n === undefined ? [] : [l.n]));
    expect(numbers).toEqual(numbers.map((_, i) => i));
    expect(numbers.length + file.health().dropped).toBe(200);
    expect(written.at(-1)?.msg).toMatch(new RegExp(`^${file.health().dropped} log lines dropped`));
  });
});
