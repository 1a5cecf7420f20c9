// The data directory is the daemon's alone: the journal (every game, the arbiter's decisions), the
// log (addresses of arbiters) and the admin token are in it. Made 0700, its files 0600; a looser
// directory or file left by an older version or a copy is closed at start.
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';

/** The modes of the data directory and of its files (docs/ops/logrotate.conf makes the log so). */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

const closed = (path: string, mode: number): void => {
  const stat = statSync(path);
  // Only what this user owns: a directory shared on purpose by someone else is theirs to set.
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(path, mode);
};

/** Makes `dir` (and its parents) if needed; `dir` itself readable by its owner alone. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  closed(dir, DIR_MODE);
}

/** The files that exist of `paths`, each readable by its owner alone. */
export function privateFiles(...paths: string[]): void {
  for (const path of paths) if (existsSync(path)) closed(path, FILE_MODE);
}
