// What the tournament tests share: the fixture files, and a tournament store in a real journal
// file in a directory of its own.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../daemon/journal/index.ts';
import { TournamentStore } from '../../daemon/tournament/store.ts';
import { type Event, readTrf } from '../../src/tournament/index.ts';

export const FIXTURES = join(import.meta.dirname, 'fixtures');

export const fixture = (name: string): string => readFileSync(join(FIXTURES, name), 'utf8');

/** A fixture TRF's event; the test stops when the fixture does not read. */
export function fixtureEvent(name: string): Event {
  const r = readTrf(fixture(name), { file: name });
  if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.error)}`);
  return r.value.event;
}

export interface TempStore {
  dir: string;
  journal: Journal;
  store: TournamentStore;
  close(): void;
}

/** A journal file with its tournament store, removed by `close`. */
export function tempStore(prefix: string): TempStore {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const journal = Journal.open(join(dir, 'journal.sqlite'));
  return {
    dir,
    journal,
    store: TournamentStore.open(journal.database),
    close() {
      journal.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface JournalFile {
  dir: string;
  /** Opens the file, runs `fn`, closes it again: a daemon's run, from start to stop. */
  run<T>(fn: (journal: Journal) => T): T;
  remove(): void;
}

/** A journal file to open and close several times (restarts). */
export function journalFile(prefix: string): JournalFile {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return {
    dir,
    run(fn) {
      const journal = Journal.open(join(dir, 'journal.sqlite'));
      try {
        return fn(journal);
      } finally {
        journal.close();
      }
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
