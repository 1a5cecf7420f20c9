// The durable journal (SQLite, WAL). An entry is committed before anything acts on it; WAL with
// synchronous=NORMAL survives a killed process (only a power cut can drop the last commits).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { JournalEntry, JournalInput, RoundSettings } from './types.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entries (
  round  INTEGER NOT NULL,
  board  INTEGER NOT NULL,
  seq    INTEGER NOT NULL,
  t      INTEGER NOT NULL,
  kind   TEXT    NOT NULL,
  serial TEXT,
  data   TEXT    NOT NULL,
  raw    BLOB,
  PRIMARY KEY (round, board, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rounds (
  round    INTEGER PRIMARY KEY,
  settings TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS bindings (
  round  INTEGER NOT NULL,
  serial TEXT    NOT NULL,
  board  INTEGER NOT NULL,
  PRIMARY KEY (round, serial)
);
`;

interface Row {
  round: number;
  board: number;
  seq: number;
  t: number;
  kind: string;
  serial: string | null;
  data: string;
  raw: Buffer | null;
}

const payload = (input: JournalInput): unknown => {
  const { kind: _kind, ...rest } = input;
  return rest;
};

function toEntry(row: Row): JournalEntry {
  const input = JSON.parse(row.data) as JournalInput;
  (input as { kind: string }).kind = row.kind;
  return {
    round: row.round,
    board: row.board,
    seq: row.seq,
    t: row.t,
    serial: row.serial ?? undefined,
    input,
    // A Buffer is a Uint8Array: no copy.
    raw: row.raw ?? undefined,
  };
}

export interface AppendRequest {
  round: number;
  board: number;
  t: number;
  input: JournalInput;
  serial?: string;
  raw?: Uint8Array;
}

export class Journal {
  private readonly db: Database.Database;
  private readonly nextSeq = new Map<string, number>();
  private readonly insert: Database.Statement;
  private readonly maxSeq: Database.Statement;
  private readonly pageOf: Database.Statement;
  private readonly inputPage: Database.Statement;
  private many: ((reqs: readonly AppendRequest[]) => JournalEntry[]) | undefined;

  private constructor(
    readonly path: string,
    readonly readonly: boolean,
  ) {
    if (readonly) {
      // Reading next to a running daemon (export): WAL lets both work at once.
      this.db = new Database(path, { readonly: true, fileMustExist: true });
    } else {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(SCHEMA);
    }
    this.insert = readonly
      ? this.db.prepare('SELECT 1')
      : this.db.prepare(
          'INSERT INTO entries (round, board, seq, t, kind, serial, data, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        );
    this.maxSeq = this.db.prepare('SELECT MAX(seq) AS seq FROM entries WHERE round = ? AND board = ?');
    this.pageOf = this.db.prepare(
      'SELECT * FROM entries WHERE round = ? AND board = ? AND seq > ? ORDER BY seq LIMIT ?',
    );
    // Rebuilds need only time and input: rows as arrays (no per-row objects), no raw bytes.
    this.inputPage = this.db
      .prepare(
        'SELECT seq, t, kind, data FROM entries WHERE round = ? AND board = ? AND seq > ? ORDER BY seq LIMIT ?',
      )
      .raw(true);
  }

  static open(path: string, options: { readonly?: boolean } = {}): Journal {
    return new Journal(path, options.readonly ?? false);
  }

  /** Commits one entry and returns it with its sequence number. */
  append(req: AppendRequest): JournalEntry {
    if (this.readonly) throw new Error(`${this.path} is open read-only`);
    const key = `${req.round}/${req.board}`;
    let seq = this.nextSeq.get(key);
    if (seq === undefined) {
      const row = this.maxSeq.get(req.round, req.board) as { seq: number | null };
      seq = (row.seq ?? 0) + 1;
    }
    this.insert.run(
      req.round,
      req.board,
      seq,
      Math.round(req.t),
      req.input.kind,
      req.serial ?? null,
      JSON.stringify(payload(req.input)),
      req.raw && req.raw.length > 0 ? Buffer.from(req.raw) : null,
    );
    this.nextSeq.set(key, seq + 1);
    return {
      round: req.round,
      board: req.board,
      seq,
      t: req.t,
      serial: req.serial,
      input: req.input,
      raw: req.raw,
    };
  }

  /** Commits several entries in one transaction (one WAL write): all of them, or none. */
  appendMany(reqs: readonly AppendRequest[]): JournalEntry[] {
    this.many ??= this.db.transaction((list: readonly AppendRequest[]) => list.map((r) => this.append(r)));
    try {
      return this.many(reqs);
    } catch (e) {
      this.nextSeq.clear(); // rolled back: sequence numbers are read again from the table
      throw e;
    }
  }

  /** Runs `fn` in one transaction (bulk imports, benchmarks): all of it is committed, or nothing. */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (e) {
      this.nextSeq.clear(); // rolled back: sequence numbers are read again from the table
      throw e;
    }
  }

  /** One board's entries of a round, in order. */
  *entries(round: number, board: number, afterSeq = 0): Generator<JournalEntry> {
    // Pages of rows: faster than a row-by-row cursor, and memory stays bounded.
    const page = 4096;
    let after = afterSeq;
    for (;;) {
      const rows = this.pageOf.all(round, board, after, page) as Row[];
      for (const row of rows) yield toEntry(row);
      if (rows.length < page) return;
      after = rows[rows.length - 1].seq;
    }
  }

  /**
   * One board's inputs of a round, in order, handed to `apply` (the rebuild path on start): larger
   * pages of lean rows, no JournalEntry objects — a restart reads every row of the round.
   */
  forEachInput(
    round: number,
    board: number,
    apply: (input: JournalInput, t: number) => void,
    page = 16384,
  ): number {
    let after = 0;
    let n = 0;
    for (;;) {
      const rows = this.inputPage.all(round, board, after, page) as [number, number, string, string][];
      for (const [, t, kind, data] of rows) {
        const input = JSON.parse(data) as JournalInput;
        (input as { kind: string }).kind = kind;
        apply(input, t);
      }
      n += rows.length;
      if (rows.length < page) return n;
      after = rows[rows.length - 1][0];
    }
  }

  /** Time of the latest entry of the round (0 when there is none). */
  lastTime(round: number): number {
    const row = this.db.prepare('SELECT MAX(t) AS t FROM entries WHERE round = ?').get(round) as {
      t: number | null;
    };
    return row.t ?? 0;
  }

  /** Every board that has entries in the round. */
  boards(round: number): number[] {
    const rows = this.db
      .prepare('SELECT DISTINCT board FROM entries WHERE round = ? ORDER BY board')
      .all(round);
    return (rows as { board: number }[]).map((r) => r.board);
  }

  rounds(): number[] {
    const rows = this.db.prepare('SELECT DISTINCT round FROM entries ORDER BY round').all();
    return (rows as { round: number }[]).map((r) => r.round);
  }

  /** Remember that a board with this serial number is board `board` of the round. */
  bind(round: number, serial: string, board: number): void {
    this.db
      .prepare('INSERT OR REPLACE INTO bindings (round, serial, board) VALUES (?, ?, ?)')
      .run(round, serial, board);
  }

  bindings(round: number): Map<string, number> {
    const rows = this.db.prepare('SELECT serial, board FROM bindings WHERE round = ?').all(round);
    return new Map((rows as { serial: string; board: number }[]).map((r) => [r.serial, r.board]));
  }

  /** The rules a round is played with (variant, draw profile…), so exports replay it the same way. */
  setRoundSettings(round: number, settings: RoundSettings): void {
    this.db
      .prepare('INSERT OR REPLACE INTO rounds (round, settings) VALUES (?, ?)')
      .run(round, JSON.stringify(settings));
  }

  roundSettings(round: number): RoundSettings | undefined {
    const row = this.db.prepare('SELECT settings FROM rounds WHERE round = ?').get(round) as
      | { settings: string }
      | undefined;
    return row ? (JSON.parse(row.settings) as RoundSettings) : undefined;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
