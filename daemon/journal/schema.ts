// The journal file's tables, and the upgrade of a file an older damlink wrote (in one transaction,
// when a daemon opens it for writing).
import type Database from 'better-sqlite3';

const SCHEMA_VERSION = 2;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS journal (
  id     INTEGER PRIMARY KEY,
  round  INTEGER NOT NULL,
  board  INTEGER NOT NULL,
  seq    INTEGER NOT NULL,
  t      INTEGER NOT NULL,
  kind   TEXT    NOT NULL,
  serial TEXT,
  data   TEXT    NOT NULL,
  raw    BLOB
);
CREATE TABLE IF NOT EXISTS derived (
  id      INTEGER PRIMARY KEY,
  round   INTEGER NOT NULL,
  board   INTEGER NOT NULL,
  version INTEGER NOT NULL,
  t       INTEGER NOT NULL,
  kind    TEXT    NOT NULL,
  data    TEXT    NOT NULL
);
-- By round: every read is of one round. The rowid is part of each entry, so a round's rows stay in
-- arrival order and a commit adds to the end of its round's range (one page, as the table's).
CREATE INDEX IF NOT EXISTS journal_round ON journal (round);
CREATE INDEX IF NOT EXISTS derived_round ON derived (round);
CREATE TABLE IF NOT EXISTS rounds (
  round    INTEGER PRIMARY KEY,
  settings TEXT NOT NULL
);
-- Dump searches, by the search's key: a restart's replay takes their steps without their work,
-- and ends them as they ended (TrackerOptions.searchMemo). \`found\`: the lines (JSON), NULL for
-- none. Any round's; losing them costs time only.
CREATE TABLE IF NOT EXISTS searches (
  key   TEXT PRIMARY KEY,
  steps INTEGER NOT NULL,
  nodes INTEGER NOT NULL,
  found TEXT
);
-- A round's games as they stood when the daemon playing it stopped, with the round's last entry
-- then: a past round is served from here while that is still its last entry (a replay otherwise).
CREATE TABLE IF NOT EXISTS round_games (
  round   INTEGER PRIMARY KEY,
  through INTEGER NOT NULL,
  games   TEXT    NOT NULL
);
-- Each board's state as it stood after the round's entry \`through\` (src/game/image.ts), with the
-- time of the board's last input then: a start restores it and replays only the entries after. \`key\`
-- names the code and the round's settings that made it: an image of another key is not used.
-- Losing them costs time only.
CREATE TABLE IF NOT EXISTS board_images (
  round   INTEGER NOT NULL,
  board   INTEGER NOT NULL,
  through INTEGER NOT NULL,
  last    INTEGER NOT NULL,
  key     TEXT    NOT NULL,
  image   BLOB    NOT NULL,
  PRIMARY KEY (round, board)
);
CREATE TABLE IF NOT EXISTS bindings (
  round  INTEGER NOT NULL,
  serial TEXT    NOT NULL,
  board  INTEGER NOT NULL,
  PRIMARY KEY (round, serial)
);
`;

/** Version 1 kept entries in a (round, board, seq) keyed table: copied over in board order once. */
const FROM_VERSION_1 = `
INSERT INTO journal (round, board, seq, t, kind, serial, data, raw)
  SELECT round, board, seq, t, kind, serial, data, raw FROM entries ORDER BY round, board, seq;
DROP TABLE entries;
`;

/** Creates what is missing and upgrades an older file. */
export function migrate(db: Database.Database): void {
  db.transaction(() => {
    db.exec(SCHEMA);
    if (hasTable(db, 'entries')) db.exec(FROM_VERSION_1);
    // Kept searches' table from before it kept found lines.
    if (!hasColumn(db, 'searches', 'found')) db.exec('ALTER TABLE searches ADD COLUMN found TEXT');
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
}

export function hasColumn(db: Database.Database, table: string, column: string): boolean {
  const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  return columns.some((c) => c.name === column);
}

export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
