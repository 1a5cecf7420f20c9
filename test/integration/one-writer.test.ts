// One writer per journal: a second `damlink run` on a data directory a daemon is using refuses to
// start (exit 2, naming that daemon's pid) and leaves the journal alone; once that daemon is killed
// (-9: no clean-up of its own), the next one starts at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { damlink } from '../daemon/commands/fixtures/run-cli.ts';
import { cleanUp, startDaemon, tempDir } from './fixtures/helpers.ts';

afterEach(cleanUp);

describe('one daemon per data directory', () => {
  it("a second daemon is refused with the first one's pid; after a kill -9 the lock is taken over", async () => {
    const dataDir = tempDir('it-lock');
    // A board nobody answers on: the daemon runs, and waits for it.
    const board = 'tcp://127.0.0.1:9';
    const first = await startDaemon([board], dataDir);
    const second = damlink(['run', '--board', board, '--port', '0', '--data-dir', dataDir]);
    expect(second.code).toBe(2);
    expect(second.stderr.trim()).toBe(
      `damlink: another damlink (pid ${first.proc.pid}) is running on the data directory ${dataDir}: stop it, or give this one another --data-dir`,
    );
    const pidFile = () => readFileSync(join(dataDir, 'damlink.pid'), 'utf8').trim();
    expect(pidFile()).toBe(String(first.proc.pid));
    first.proc.kill('SIGKILL');
    await first.exited;
    const third = await startDaemon([board], dataDir);
    expect(third.proc.exitCode).toBeNull();
    expect(pidFile()).toBe(String(third.proc.pid));
    await third.stop();
  }, 60_000);
});
