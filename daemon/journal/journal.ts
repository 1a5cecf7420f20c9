// The durable journal (SQLite, WAL). An entry is committed before anything acts on it; WAL with
// synchronous=NORMAL survives a killed process (only a power cut can drop the last commits, until
// the next checkpoint syncs the WAL). What must survive a power cut too (arbiter calls) waits for
// `sync`: the WAL synced off the event loop, as synchronous=FULL would sync it in the commit.
// Rows are kept in arrival order (the rowid), indexed by round alone: each commit then writes a page
// or two at the end of the table and of the index, where a (round, board, seq) key scattered every
// commit over one page per board — five times the work and the daemon's largest cost with 200
// boards. Reads are whole passes over a round in that order, which is also what a restart needs.
import { mkdirSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Checkpointer } from './checkpointer.ts';
import { type Page, PagesAhead } from './pages-ahead.ts';
import { hasColumn, hasTable, migrate } from './schema.ts';
import type { BoardInput } from '../../src/game/board-game.ts';
import type { RoundSettings, SearchRow, SearchRows } from './types.ts';

/** Bytes the WAL file is cut back to when it starts over after a checkpoint (a burst can grow it). */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024;

const payload = (input: BoardInput): unknown => {
  const { kind: _kind, ...rest } = input;
  return rest;
};

/** Fields of a row in a page of forEachRoundInput: id, board, seq, t, kind, data. */
const ROW_FIELDS = 6;
/** Rows in a page of forEachRoundInput. */
const ROUND_PAGE = 16384;

/**
 * A page of a round's rows (of one board's) after an id: as one JSON text made by SQLite,
 * `[id,board,seq,t,"kind",data,…]`, and one parse — a row array and a parse of its own for each of a
 * restart's hundred thousand rows cost twice as much. Arguments: round, (board,) after-id, rows.
 */
const roundPageSql = (oneBoard: boolean): string =>
  `SELECT max(id), count(*), '[' || group_concat(id || ',' || board || ',' || seq || ',' || t || ',"' || kind || '",' || data, ',') || ']'
   FROM (SELECT id, board, seq, t, kind, data FROM journal
         WHERE round = ?${oneBoard ? ' AND board = ?' : ''} AND id > ? ORDER BY id LIMIT ?)`;

/**
 * Where each row of a flat page (`fields` values a row, the id first) starts, in the order of its
 * ids: the order SQLite concatenated them in, which is that order whenever it is one (SQL promises
 * no order to an aggregate; then they are sorted).
 */
export function journalOrder(rows: readonly unknown[], fields: number): number[] {
  const starts: number[] = [];
  let ordered = true;
  for (let i = 0; i < rows.length; i += fields) {
    if (i > 0 && (rows[i] as number) < (rows[i - fields] as number)) ordered = false;
    starts.push(i);
  }
  return ordered ? starts : starts.sort((a, b) => (rows[a] as number) - (rows[b] as number));
}

/** An output of a game (a move, an alert, a result…) kept beside the inputs that produced it. */
export interface DerivedRecord {
  round: number;
  board: number;
  version: number;
  t: number;
  kind: string;
  data: unknown;
}

export interface JournalOptions {
  readonly?: boolean;
  /**
   * Checkpoint the WAL from a background thread instead of in the commit that crosses the limit:
   * a checkpoint syncs the disk, which stalled the daemon's event loop for up to 10 ms.
   */
  backgroundCheckpoints?: boolean;
}

export interface AppendRequest {
  round: number;
  board: number;
  t: number;
  input: BoardInput;
  serial?: string;
  raw?: Uint8Array;
}

/** A board's state after the round's entry `through` (src/game/image.ts), serialized. */
export interface BoardImage {
  board: number;
  through: number;
  /** The time of the board's last input then. */
  last: number;
  key: string;
  image: Uint8Array;
}

export class Journal {
  private readonly db: Database.Database;
  /** Per round, per board: the next sequence number (a round is loaded on its first append). */
  private readonly nextSeq = new Map<number, Map<number, number>>();
  private readonly insert: Database.Statement;
  private readonly insertDerived: Database.Statement;
  private readonly checkpointer: Checkpointer | undefined;
  private many: ((reqs: readonly AppendRequest[], derived: readonly DerivedRecord[]) => void) | undefined;
  /** The WAL file, opened on the first `sync`; the directory is synced once then, for its entry. */
  private wal: Promise<FileHandle> | undefined;

  private constructor(
    readonly path: string,
    options: JournalOptions,
  ) {
    this.readonly = options.readonly ?? false;
    if (this.readonly) {
      // Reading next to a running daemon (export): WAL lets both work at once.
      this.db = new Database(path, { readonly: true, fileMustExist: true });
      if (!hasTable(this.db, 'journal'))
        throw new Error('written by an older damlink: start the daemon on it once to upgrade it');
    } else {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      this.db = new Database(path);
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
      migrate(this.db);
      if (options.backgroundCheckpoints && path !== ':memory:') {
        this.db.pragma('wal_autocheckpoint = 0');
        // Should the thread fail, checkpoints go back to the commits: a stall now and then beats a WAL
        // that grows without end.
        this.checkpointer = new Checkpointer(path, () => this.db.pragma('wal_autocheckpoint = 1000'));
      }
    }
    this.insert = this.db.prepare(
      this.readonly
        ? 'SELECT 1'
        : 'INSERT INTO journal (round, board, seq, t, kind, serial, data, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertDerived = this.db.prepare(
      this.readonly
        ? 'SELECT 1'
        : 'INSERT INTO derived (round, board, version, t, kind, data) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  readonly readonly: boolean;

  /** The SQLite handle, for stores that keep their own tables in the journal's file (the tournament). */
  get database(): Database.Database {
    return this.db;
  }

  static open(path: string, options: JournalOptions = {}): Journal {
    return new Journal(path, options);
  }

  private sequences(round: number): Map<number, number> {
    let seqs = this.nextSeq.get(round);
    if (!seqs) {
      const rows = this.db
        .prepare('SELECT board, MAX(seq) FROM journal WHERE round = ? GROUP BY board')
        .raw(true)
        .all(round) as [number, number][];
      seqs = new Map(rows.map(([board, seq]) => [board, seq + 1]));
      this.nextSeq.set(round, seqs);
    }
    return seqs;
  }

  /** Inserts one entry, inside the caller's transaction. */
  private write(req: AppendRequest): void {
    if (this.readonly) throw new Error(`${this.path} is open read-only`);
    const seqs = this.sequences(req.round);
    const seq = seqs.get(req.board) ?? 1;
    this.insert.run(
      req.round,
      req.board,
      seq,
      Math.round(req.t),
      req.input.kind,
      req.serial ?? null,
      JSON.stringify(payload(req.input)),
      // A view, not a copy: SQLite copies the bytes as it binds them.
      req.raw && req.raw.length > 0 ? Buffer.from(req.raw.buffer, req.raw.byteOffset, req.raw.length) : null,
    );
    seqs.set(req.board, seq + 1);
  }

  /**
   * Commits several entries in one transaction (one WAL write): all of them, or none; with them
   * `derived` records — games' outputs (moves, alerts, results…) kept for people and tools that
   * read the file. A restart does not need those: replaying the inputs derives them again.
   */
  appendMany(reqs: readonly AppendRequest[], derived: readonly DerivedRecord[] = []): void {
    this.many ??= this.db.transaction((list: readonly AppendRequest[], more: readonly DerivedRecord[]) => {
      this.storeDerived(more);
      for (const r of list) this.write(r);
    });
    this.rollingBack(() => this.many!(reqs, derived));
  }

  private rollingBack<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      this.nextSeq.clear(); // rolled back: sequence numbers are read again from the table
      throw e;
    }
  }

  private storeDerived(records: readonly DerivedRecord[]): void {
    if (this.readonly) throw new Error(`${this.path} is open read-only`);
    for (const r of records)
      this.insertDerived.run(r.round, r.board, r.version, Math.round(r.t), r.kind, JSON.stringify(r.data));
  }

  /** Per board of the round, the newest version stored among its derived records. */
  derivedVersions(round: number): Map<number, number> {
    const rows = this.db
      .prepare('SELECT board, MAX(version) FROM derived WHERE round = ? GROUP BY board')
      .raw(true)
      .all(round) as [number, number][];
    return new Map(rows);
  }

  /**
   * The round's pages read ahead in a thread of their own, for `forEachRoundInput` (a start's
   * rebuild). None for a round of one page (the thread's own start would be the wait), from a
   * journal in memory, or when the thread cannot start.
   */
  readAhead(round: number, page = ROUND_PAGE): PagesAhead | undefined {
    if (this.path === ':memory:') return undefined;
    const more = this.db.prepare('SELECT 1 FROM journal WHERE round = ? LIMIT 1 OFFSET ?').get(round, page);
    return more ? PagesAhead.start(this.path, roundPageSql(false), [round], page) : undefined;
  }

  /**
   * Every input of a round in journal order, handed to `apply` with its board: the rebuild path on
   * start, one pass over the round in larger pages of lean rows (no JournalEntry objects, no raw
   * bytes). `board` limits the pass to one board; `ahead` (readAhead) reads the whole round's pages,
   * of its size; `after` starts after that entry (a start that restored images: not with `ahead`).
   * `apply` gets each entry's id too.
   */
  forEachRoundInput(
    round: number,
    apply: (board: number, input: BoardInput, t: number, id: number) => void,
    options: { page?: number; board?: number; ahead?: PagesAhead; after?: number } = {},
  ): number {
    const { board, ahead } = options;
    const page = ahead?.page ?? options.page ?? ROUND_PAGE;
    const statement = this.db.prepare(roundPageSql(board !== undefined)).raw(true);
    // The thread reads the whole round from its start.
    const reader = board === undefined && !options.after ? ahead : undefined;
    // A pass over the whole round sees every board's last sequence number: the appends after it
    // (a restart) need not look them up.
    let after = options.after ?? 0;
    const seqs =
      board === undefined && after === 0 && !this.nextSeq.has(round) ? new Map<number, number>() : undefined;
    let n = 0;
    try {
      for (;;) {
        const args = board === undefined ? [round, after, page] : [round, board, after, page];
        // The thread's pages follow the same ids: should it fail, this reads on from `after`.
        const [last, count, text] = reader?.next() ?? (statement.get(...args) as Page);
        if (last === null || text === null) break;
        const rows = JSON.parse(text) as unknown[];
        for (const i of journalOrder(rows, ROW_FIELDS)) {
          const b = rows[i + 1] as number;
          seqs?.set(b, (rows[i + 2] as number) + 1);
          const input = rows[i + 5] as { kind: string };
          input.kind = rows[i + 4] as string;
          apply(b, input as BoardInput, rows[i + 3] as number, rows[i] as number);
        }
        n += count;
        if (count < page) break;
        after = last;
      }
    } finally {
      ahead?.close();
    }
    if (seqs && !this.nextSeq.has(round)) this.nextSeq.set(round, seqs);
    return n;
  }

  /** Every round with entries, ascending (one index seek a round, however long the journal). */
  rounds(): number[] {
    const next = this.db.prepare('SELECT MIN(round) AS r FROM journal WHERE round > ?');
    const rounds: number[] = [];
    for (
      let r = (next.get(-1) as { r: number | null }).r;
      r !== null;
      r = (next.get(r) as { r: number | null }).r
    )
      rounds.push(r);
    return rounds;
  }

  /** How many entries the round has (what a start replays). */
  roundEntries(round: number): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM journal WHERE round = ?').get(round) as { n: number })
      .n;
  }

  hasRound(round: number): boolean {
    return this.db.prepare('SELECT 1 FROM journal WHERE round = ? LIMIT 1').get(round) !== undefined;
  }

  /** Every board that has entries in the round. */
  boards(round: number): number[] {
    const rows = this.db
      .prepare('SELECT DISTINCT board FROM journal WHERE round = ? ORDER BY board')
      .all(round);
    return (rows as { board: number }[]).map((r) => r.board);
  }

  /** The id of the round's last entry (0 for none). */
  lastEntry(round: number): number {
    const row = this.db.prepare('SELECT MAX(id) AS id FROM journal WHERE round = ?').get(round) as {
      id: number | null;
    };
    return row.id ?? 0;
  }

  /**
   * Keeps a round's games as they stand after its last entry (a daemon stopping, a round rebuilt
   * from the journal): served as they are while no entry of the round comes after. Not kept by a
   * read-only journal, nor when it cannot write (they are only a shortcut).
   */
  keepRoundGames(round: number, games: readonly unknown[] | string): void {
    if (this.readonly) return;
    try {
      this.db
        .prepare('INSERT OR REPLACE INTO round_games (round, through, games) VALUES (?, ?, ?)')
        .run(round, this.lastEntry(round), typeof games === 'string' ? games : JSON.stringify(games));
    } catch {}
  }

  /** Keeps boards' images (BoardImage) in one transaction; not by a read-only journal. */
  keepImages(round: number, images: readonly BoardImage[]): void {
    if (this.readonly) return;
    const put = this.db.prepare(
      'INSERT OR REPLACE INTO board_images (round, board, through, last, key, image) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const i of images) put.run(round, i.board, i.through, Math.round(i.last), i.key, i.image);
    })();
  }

  /** Drops the images of every round but `round` (each round's take a few megabytes). */
  dropImagesBut(round: number): void {
    if (this.readonly || !hasTable(this.db, 'board_images')) return;
    this.db.prepare('DELETE FROM board_images WHERE round <> ?').run(round);
  }

  /** The round's images made under `key`, by board. */
  images(round: number, key: string): Map<number, BoardImage> {
    if (!hasTable(this.db, 'board_images')) return new Map();
    const rows = this.db
      .prepare('SELECT board, through, last, key, image FROM board_images WHERE round = ? AND key = ?')
      .all(round, key) as BoardImage[];
    return new Map(rows.map((r) => [r.board, r]));
  }

  /** Whether the round's games are kept and current (no entry since), without reading them. */
  keepsRound(round: number): boolean {
    if (!hasTable(this.db, 'round_games')) return false;
    const row = this.db.prepare('SELECT through FROM round_games WHERE round = ?').get(round) as
      | { through: number }
      | undefined;
    return row !== undefined && row.through === this.lastEntry(round);
  }

  /** The round's games kept by `keepRoundGames`, if the round has had no entry since. */
  roundGames(round: number): unknown[] | undefined {
    return this.keptRound(round)?.games;
  }

  /** The same, with the size of their JSON text (for a cache bounded in bytes). */
  keptRound(round: number): { games: unknown[]; bytes: number } | undefined {
    if (!hasTable(this.db, 'round_games')) return undefined;
    try {
      const row = this.db.prepare('SELECT through, games FROM round_games WHERE round = ?').get(round) as
        | { through: number; games: string }
        | undefined;
      if (!row || row.through !== this.lastEntry(round)) return undefined;
      const games = JSON.parse(row.games) as unknown;
      return Array.isArray(games) ? { games, bytes: row.games.length } : undefined;
    } catch {
      return undefined;
    }
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

  /**
   * The dump searches' rows by key: looked up when a search starts, and one that ends is kept (not
   * by a read-only journal, which keeps it in memory; a failed read or write only costs a replay
   * its time). What a row means is the tracker's (board/search-memo.ts).
   */
  searchRows(): SearchRows {
    const noted = new Map<string, SearchRow>();
    const table = hasTable(this.db, 'searches');
    const found = table && hasColumn(this.db, 'searches', 'found') ? 'found' : 'NULL AS found';
    const read = table
      ? this.db.prepare(`SELECT steps, nodes, ${found} FROM searches WHERE key = ?`)
      : undefined;
    const keep = this.readonly
      ? undefined
      : this.db.prepare('INSERT OR REPLACE INTO searches (key, steps, nodes, found) VALUES (?, ?, ?, ?)');
    return {
      get: (key) => {
        const mine = noted.get(key);
        if (mine) return mine;
        try {
          return read?.get(key) as SearchRow | undefined;
        } catch {
          return undefined;
        }
      },
      put: (key, row) => {
        noted.set(key, row);
        try {
          keep?.run(key, row.steps, row.nodes, row.found);
        } catch {}
      },
    };
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

  /**
   * Resolves once every commit made so far is on the disk itself (fdatasync of the WAL, in the
   * thread pool: the event loop keeps serving meanwhile). A checkpoint that moved commits into the
   * database file has synced them already; the WAL stays the same file while the journal is open.
   */
  async sync(): Promise<void> {
    if (this.path === ':memory:' || this.readonly) return;
    const wal = (this.wal ??= this.openWal());
    try {
      await (await wal).datasync();
    } catch (e) {
      // Opened again by the next sync: a handle that failed once is not trusted.
      if (this.wal === wal) this.closeWal();
      throw e;
    }
  }

  private async openWal(): Promise<FileHandle> {
    const file = await open(`${this.path}-wal`, 'r+');
    try {
      const dir = await open(dirname(this.path), 'r');
      try {
        await dir.sync();
      } finally {
        await dir.close();
      }
    } catch (e) {
      await file.close().catch(() => {});
      throw e;
    }
    return file;
  }

  private closeWal(): void {
    void this.wal?.then((f) => f.close()).catch(() => {});
    this.wal = undefined;
  }

  close(): void {
    this.closeWal();
    this.checkpointer?.stop();
    if (this.db.open) this.db.close();
  }
}
