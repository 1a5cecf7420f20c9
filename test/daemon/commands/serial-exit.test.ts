// A serial board that sends nothing must not keep damlink alive: `run` stopped by SIGTERM and
// `capture` at its end both exit by themselves (the port closed, not only its stream destroyed),
// against a socat PTY whose other end stays silent.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { socatPair } from '../../../simulator/transports/pty.ts';
import { cleanUp, onCleanup, startDaemon, until } from '../../integration/fixtures/helpers.ts';
import { spawnDamlink } from './fixtures/run-cli.ts';

afterEach(cleanUp);

/** A PTY pair whose board end nobody opens: the host end is a serial port that never speaks. */
async function silentPort(): Promise<{ dir: string; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-silent-'));
  const path = join(dir, 'board');
  const socat: ChildProcess = await socatPair(join(dir, 'board.other'), path);
  onCleanup(async () => {
    if (socat.exitCode === null) {
      const exited = new Promise((r) => socat.once('exit', r));
      socat.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, path };
}

/** Whether process `pid` holds the PTY open (its descriptors, as Linux lists them). */
function holds(pid: number | undefined, path: string): boolean {
  const device = realpathSync(path);
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === device;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

describe('a silent serial board', () => {
  it('damlink run exits 0 on SIGTERM', async () => {
    const { dir, path } = await silentPort();
    const daemon = await startDaemon([`serial:${path}`], join(dir, 'data'));
    onCleanup(() => daemon.stop('SIGKILL'));
    await until(() => holds(daemon.proc.pid, path), 15_000, 'the daemon opens the port');
    daemon.proc.kill('SIGTERM');
    expect(await daemon.exited, daemon.stderr()).toBe(0);
  }, 30_000);

  it('damlink capture ends by itself after --seconds, exit 0', async () => {
    const { dir, path } = await silentPort();
    const out = join(dir, 'capture.jsonl');
    const run = spawnDamlink(['capture', '--board', `serial:${path}`, '--seconds', '1', '--out', out]);
    onCleanup(async () => {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
    });
    expect(await run.exited, run.stderr()).toBe(0);
    expect(run.stderr()).toContain('the board said nothing');
  }, 30_000);

  it('damlink capture stopped by SIGTERM exits 0', async () => {
    const { dir, path } = await silentPort();
    const run = spawnDamlink(['capture', '--board', `serial:${path}`, '--out', join(dir, 'c.jsonl')]);
    onCleanup(async () => {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
    });
    await until(() => holds(run.child.pid, path), 15_000, 'capture opens the port');
    // Its signal handlers are set once the first commands are sent.
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill('SIGTERM');
    expect(await run.exited, run.stderr()).toBe(0);
  }, 30_000);
});
