// A data directory whose disk a test can fill and free while a daemon writes to it. As root: a
// small tmpfs, filled by a file of zeros (SQLite and the log then meet a real ENOSPC). Otherwise: a
// plain directory and a daemon whose journal fails as on a full disk while a marker file exists
// (journal-faults.ts, preloaded into the daemon). Chosen at run time; TEST_FULL_DISK=fault
// forces the second on root too.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../integration/helpers.ts';

export interface FullableDisk {
  kind: 'tmpfs' | 'fault';
  dir: string;
  /** Extra node arguments for the daemon. */
  nodeArgs: string[];
  fill(): void;
  free(): void;
  close(): void;
}

/** Marker that makes the fault-injected journal fail (journal-faults.ts reads it). */
export const FULL_MARKER = '.disk-full';

const FAULTS = join(import.meta.dirname, 'journal-faults.ts');

function tmpfs(size: string): FullableDisk | undefined {
  if (process.getuid?.() !== 0 || process.env.TEST_FULL_DISK === 'fault') return undefined;
  const dir = tempDir('tmpfs');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    return undefined; // root without CAP_SYS_ADMIN (a container): the fault-injected journal then
  }
  const filler = join(dir, 'filler');
  return {
    kind: 'tmpfs',
    dir,
    nodeArgs: [],
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      } finally {
        closeSync(fd);
      }
      // The last partial blocks too.
      for (const n of [4096, 512, 1]) {
        try {
          writeFileSync(filler, Buffer.alloc(n), { flag: 'a' });
        } catch {}
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    close() {
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
    },
  };
}

function faultInjected(): FullableDisk {
  const dir = tempDir('faults');
  const marker = join(dir, FULL_MARKER);
  return {
    kind: 'fault',
    dir,
    nodeArgs: ['--import', 'tsx', '--import', FAULTS],
    fill: () => writeFileSync(marker, ''),
    free: () => rmSync(marker, { force: true }),
    close() {},
  };
}

/** A disk of about `size` (tmpfs) or the fault-injected journal. */
export function fullableDisk(size = '16m'): FullableDisk {
  return tmpfs(size) ?? faultInjected();
}

export const isFull = (dir: string): boolean => existsSync(join(dir, FULL_MARKER));
