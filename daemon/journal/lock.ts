// One writer per journal: a second `damlink run` on the same data directory would interleave its
// boards' inputs with the first one's and serve a game nobody played. The lock is an exclusive
// SQLite lock on a file of its own (the journal stays readable by `export` meanwhile); the operating
// system drops it when the process ends, however it ends, so a crash leaves no stale lock to clear.
// Beside it, the holder's pid, for the message the second daemon gives.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export const LOCK_FILE = 'journal.lock';
export const PID_FILE = 'damlink.pid';

export type LockAnswer =
  | { ok: true; lock: JournalLock }
  /** Held by another process (its pid when it wrote one). */
  | { ok: false; pid?: number };

export class JournalLock {
  private constructor(
    private readonly db: Database.Database,
    readonly dir: string,
  ) {}

  /** Takes the data directory's lock, or says who holds it. Throws only when the file cannot be made. */
  static take(dir: string): LockAnswer {
    const db = new Database(join(dir, LOCK_FILE));
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN EXCLUSIVE');
    } catch (e) {
      db.close();
      if ((e as { code?: string }).code !== 'SQLITE_BUSY') throw e;
      return { ok: false, ...holder(dir) };
    }
    // Taken: a pid left by a process that ended without its own clean-up is simply replaced.
    writeFileSync(join(dir, PID_FILE), `${process.pid}\n`);
    return { ok: true, lock: new JournalLock(db, dir) };
  }

  release(): void {
    if (!this.db.open) return;
    this.db.exec('ROLLBACK');
    this.db.close();
  }
}

function holder(dir: string): { pid?: number } {
  try {
    const pid = Number.parseInt(readFileSync(join(dir, PID_FILE), 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? { pid } : {};
  } catch {
    return {};
  }
}
