// Preloaded into a daemon (node --import) when a test cannot mount a small disk: while the marker
// file of disk.ts exists in the daemon's --data-dir, every journal write fails with SQLITE_FULL, as
// SQLite reports a full disk; the rest of the daemon is the real one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Journal } from '../../daemon/journal/journal.ts';

const at = process.argv.indexOf('--data-dir');
const marker = at > 0 ? join(process.argv[at + 1], '.disk-full') : undefined;

const diskFull = (): Error =>
  Object.assign(new Error('database or disk is full'), { name: 'SqliteError', code: 'SQLITE_FULL' });

const appendMany = Journal.prototype.appendMany;
Journal.prototype.appendMany = function (this: Journal, ...args: Parameters<Journal['appendMany']>) {
  if (marker && existsSync(marker)) throw diskFull();
  return appendMany.apply(this, args);
};
const sync = Journal.prototype.sync;
Journal.prototype.sync = function (this: Journal) {
  if (marker && existsSync(marker)) return Promise.reject(diskFull());
  return sync.apply(this);
};
