// The tournament in the journal's SQLite file, beside the games it is about: the event (players,
// rounds, pairings, results) and the round being played, in tables of their own. The tables carry
// their own schema version (the journal's `user_version` is the journal's), and migrate forward
// on open, each step in one transaction.
import type Database from 'better-sqlite3';
import {
  type Bye,
  type ByeKind,
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
  type Event,
  formatResult,
  type Pairing,
  type PairingResult,
  type Player,
  parseResult,
  type Round,
} from '../../src/tournament/index.ts';

/** Step n takes the tables from version n to n + 1. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE tournament_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE tournament_players (start INTEGER PRIMARY KEY, data TEXT NOT NULL);
   CREATE TABLE tournament_pairings (
     round  INTEGER NOT NULL,
     tableno INTEGER NOT NULL,
     white  INTEGER NOT NULL,
     black  INTEGER NOT NULL,
     result TEXT,
     PRIMARY KEY (round, tableno)
   );
   CREATE TABLE tournament_byes (
     round  INTEGER NOT NULL,
     player INTEGER NOT NULL,
     kind   TEXT    NOT NULL,
     PRIMARY KEY (round, player)
   );`,
];

export const TOURNAMENT_SCHEMA_VERSION = MIGRATIONS.length;

type EventHead = Omit<Event, 'players' | 'rounds'>;

interface PairingRow {
  round: number;
  tableno: number;
  white: number;
  black: number;
  result: string | null;
}

/** Resolves once every commit so far is on the disk (the journal's `sync`). */
export type SyncToDisk = () => Promise<void>;

export class TournamentStore {
  private constructor(
    private readonly db: Database.Database,
    /** The arbiter's changes are answered once on the disk, as the journal's own calls are. */
    readonly sync: SyncToDisk,
  ) {}

  /**
   * Opens the store on the journal's handle, creating or migrating its tables (unless read-only).
   * `sync` is the journal's (without it, a write is as durable as its commit).
   */
  static open(db: Database.Database, sync: SyncToDisk = () => Promise.resolve()): TournamentStore {
    const store = new TournamentStore(db, sync);
    if (!db.readonly) store.migrate();
    return store;
  }

  /** The version the tables are at; 0 before the first migration. */
  schemaVersion(): number {
    if (!this.hasTable('tournament_meta')) return 0;
    return Number(this.meta('schema') ?? 0);
  }

  private hasTable(name: string): boolean {
    return (
      this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined
    );
  }

  private migrate(): void {
    for (let v = this.schemaVersion(); v < MIGRATIONS.length; v++)
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[v]);
        this.setMeta('schema', String(v + 1));
      })();
  }

  private meta(key: string): string | undefined {
    const row = this.db.prepare('SELECT value FROM tournament_meta WHERE key = ?').get(key) as
      | { value: string }
      | undefined;
    return row?.value;
  }

  private setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO tournament_meta (key, value) VALUES (?, ?)').run(key, value);
  }

  /** Replaces the whole tournament, in one transaction. */
  save(event: Event): void {
    this.db.transaction(() => {
      const { players, rounds, ...head } = event;
      this.setMeta('event', JSON.stringify(head));
      this.db.exec(
        'DELETE FROM tournament_players; DELETE FROM tournament_pairings; DELETE FROM tournament_byes;',
      );
      const insert = this.db.prepare('INSERT INTO tournament_players (start, data) VALUES (?, ?)');
      for (const p of players) insert.run(p.start, JSON.stringify(p));
      for (const r of rounds) this.writeRound(r);
    })();
  }

  private writeRound(round: Round): void {
    this.db.prepare('DELETE FROM tournament_pairings WHERE round = ?').run(round.number);
    this.db.prepare('DELETE FROM tournament_byes WHERE round = ?').run(round.number);
    const pairing = this.db.prepare(
      'INSERT INTO tournament_pairings (round, tableno, white, black, result) VALUES (?, ?, ?, ?, ?)',
    );
    for (const p of round.pairings)
      pairing.run(round.number, p.table, p.white, p.black, p.result ? formatResult(p.result) : null);
    const bye = this.db.prepare('INSERT INTO tournament_byes (round, player, kind) VALUES (?, ?, ?)');
    for (const b of round.byes) bye.run(round.number, b.player, b.kind);
  }

  /** Replaces one round's pairings and byes. */
  saveRound(round: Round): void {
    this.db.transaction(() => this.writeRound(round))();
  }

  /** Records (or, with undefined, clears) the result of one table; false when there is no such table. */
  setResult(round: number, table: number, result: PairingResult | undefined): boolean {
    const r = this.db
      .prepare('UPDATE tournament_pairings SET result = ? WHERE round = ? AND tableno = ?')
      .run(result ? formatResult(result) : null, round, table);
    return r.changes > 0;
  }

  /** Replaces one player's record (by starting rank); false when no player has it. */
  savePlayer(player: Player): boolean {
    const r = this.db
      .prepare('UPDATE tournament_players SET data = ? WHERE start = ?')
      .run(JSON.stringify(player), player.start);
    return r.changes > 0;
  }

  /** The tournament, or undefined when none was stored. */
  load(): Event | undefined {
    if (!this.hasTable('tournament_meta')) return undefined;
    const head = this.meta('event');
    if (head === undefined) return undefined;
    const base: EventHead = {
      name: '',
      groups: [],
      points: DRAUGHTS_POINTS,
      tiebreaks: DEFAULT_TIEBREAKS,
      advantageDraws: false,
      ...(JSON.parse(head) as Partial<EventHead>),
    };
    const players = (
      this.db.prepare('SELECT data FROM tournament_players ORDER BY start').all() as { data: string }[]
    ).map((r) => JSON.parse(r.data) as Player);
    const pairings = this.db
      .prepare('SELECT * FROM tournament_pairings ORDER BY round, tableno')
      .all() as PairingRow[];
    const byes = this.db
      .prepare('SELECT round, player, kind FROM tournament_byes ORDER BY round, player')
      .all() as {
      round: number;
      player: number;
      kind: ByeKind;
    }[];
    const numbers = [...new Set([...pairings.map((p) => p.round), ...byes.map((b) => b.round)])].sort(
      (a, b) => a - b,
    );
    const rounds: Round[] = numbers.map((number) => ({
      number,
      pairings: pairings
        .filter((p) => p.round === number)
        .map((p): Pairing => {
          const result = p.result === null ? null : parseResult(p.result);
          return { table: p.tableno, white: p.white, black: p.black, ...(result ? { result } : {}) };
        }),
      byes: byes.filter((b) => b.round === number).map((b): Bye => ({ player: b.player, kind: b.kind })),
    }));
    return { ...base, players, rounds };
  }

  /** The round being played: a restart continues it. */
  currentRound(): number | undefined {
    if (!this.hasTable('tournament_meta')) return undefined;
    const v = this.meta('round');
    return v === undefined ? undefined : Number(v);
  }

  setCurrentRound(round: number): void {
    this.setMeta('round', String(round));
  }
}
