import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOURNAL_SIZE_LIMIT, Journal } from '../../../daemon/journal/journal.ts';
import { append, entries, lastSeq } from '../fixtures/journal-rows.ts';
import { searchMemoOf } from '../../../daemon/board/search-memo.ts';

const tmp = (): string => join(mkdtempSync(join(tmpdir(), 'damlink-journal-')), 'journal.sqlite');

describe('journal', () => {
  it('keeps entries per board in order with gapless sequence numbers, raw bytes included', () => {
    const j = Journal.open(tmp());
    append(j, {
      round: 1,
      board: 2,
      t: 10,
      serial: 'S2',
      input: { kind: 'event', event: { t: 10, type: 'lift', square: 32 } },
      raw: new Uint8Array([1, 2]),
    });
    append(j, { round: 1, board: 1, t: 11, input: { kind: 'result', result: '1-1' } });
    append(j, {
      round: 1,
      board: 2,
      t: 12,
      input: { kind: 'decision', decision: { alertId: '3-5.4.6-1', kind: 'stands' } },
    });
    const two = entries(j, 1, 2);
    expect(two.map((e) => [e.seq, e.input.kind])).toEqual([
      [1, 'event'],
      [2, 'decision'],
    ]);
    expect(two[0]).toMatchObject({ serial: 'S2', input: { event: { type: 'lift', square: 32 } } });
    expect([...two[0].raw!]).toEqual([1, 2]);
    expect(entries(j, 1, 1)[0].input).toEqual({ kind: 'result', result: '1-1' });
    expect(j.boards(1)).toEqual([1, 2]);
    expect(entries(j, 1, 2, 1).map((e) => e.seq)).toEqual([2]);
    j.close();
  });

  it('continues the sequence after a reopen and remembers serial bindings', () => {
    const path = tmp();
    const a = Journal.open(path);
    append(a, { round: 1, board: 1, t: 1, input: { kind: 'state', state: 'active', serial: 'X' } });
    a.bind(1, 'X', 4);
    a.close();
    const b = Journal.open(path);
    append(b, { round: 1, board: 1, t: 2, input: { kind: 'state', state: 'lost' } });
    expect(lastSeq(b, 1, 1)).toBe(2);
    expect(b.bindings(1).get('X')).toBe(4);
    expect(b.bindings(2).size).toBe(0);
    b.close();
  });

  it('upgrades a journal written by damlink 0.1 (entries keyed by round, board, seq), losing nothing', () => {
    const path = tmp();
    const old = new Database(path);
    old.exec(`CREATE TABLE entries (round INTEGER NOT NULL, board INTEGER NOT NULL, seq INTEGER NOT NULL,
      t INTEGER NOT NULL, kind TEXT NOT NULL, serial TEXT, data TEXT NOT NULL, raw BLOB,
      PRIMARY KEY (round, board, seq)) WITHOUT ROWID`);
    const put = old.prepare('INSERT INTO entries VALUES (1, ?, ?, ?, ?, NULL, ?, NULL)');
    put.run(2, 1, 10, 'result', '{"result":"1-1"}');
    put.run(1, 1, 11, 'event', '{"event":{"t":11,"type":"lift","square":32}}');
    put.run(1, 2, 12, 'event', '{"event":{"t":12,"type":"put","square":28,"piece":"w"}}');
    old.close();
    expect(() => Journal.open(path, { readonly: true })).toThrow(/older damlink/);
    const j = Journal.open(path);
    expect(j.boards(1)).toEqual([1, 2]);
    expect(entries(j, 1, 1).map((e) => [e.seq, e.input])).toEqual([
      [1, { kind: 'event', event: { t: 11, type: 'lift', square: 32 } }],
      [2, { kind: 'event', event: { t: 12, type: 'put', square: 28, piece: 'w' } }],
    ]);
    append(j, { round: 1, board: 1, t: 13, input: { kind: 'state', state: 'lost' } });
    expect(lastSeq(j, 1, 1)).toBe(3);
    j.close();
    expect(Journal.open(path, { readonly: true }).boards(1)).toEqual([1, 2]);
  });

  it('hands over the inputs of a round in one pass, in journal order, with their boards', () => {
    const j = Journal.open(tmp());
    for (let i = 0; i < 10; i++)
      append(j, { round: 1, board: 1 + (i % 3), t: i, input: { kind: 'result', result: '*' } });
    append(j, { round: 2, board: 1, t: 99, input: { kind: 'result', result: '*' } });
    const seen: [number, number][] = [];
    expect(j.forEachRoundInput(1, (board, _input, t) => seen.push([board, t]), { page: 4 })).toBe(10);
    expect(seen).toEqual(Array.from({ length: 10 }, (_, i) => [1 + (i % 3), i]));
    j.close();
  });

  it('checkpoints from its own thread, and the WAL is cut back to its limit afterwards', async () => {
    const path = tmp();
    const j = Journal.open(path, { backgroundCheckpoints: true });
    const size = (file: string) => (existsSync(file) ? statSync(file).size : 0);
    const data = 'x'.repeat(2000);
    const write = (n: number) => {
      for (let i = 0; i < n; i++)
        j.appendMany([{ round: 1, board: 1, t: i, input: { kind: 'info', info: { event: data } } }]);
    };
    // Far past SQLite's own 1000-page checkpoint limit, which the daemon's connection turns off.
    write(3000);
    expect(size(`${path}-wal`)).toBeGreaterThan(JOURNAL_SIZE_LIMIT);
    const before = size(path);
    // Only a checkpoint moves pages from the WAL into the database file: the thread runs one.
    for (let i = 0; i < 50 && size(path) - before < 4_000_000; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(size(path) - before).toBeGreaterThan(4_000_000);
    // The first commit after a complete checkpoint starts the WAL over, cut back to the limit.
    let more = 0;
    for (; more < 50 && size(`${path}-wal`) > JOURNAL_SIZE_LIMIT; more++) {
      write(1);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(size(`${path}-wal`)).toBeLessThanOrEqual(JOURNAL_SIZE_LIMIT);
    j.close();
    const reread = Journal.open(path, { readonly: true });
    expect(entries(reread, 1, 1).length).toBe(3000 + more);
    reread.close();
  });

  it('loses no committed entry and leaves no gap when the writer is killed with SIGKILL', async () => {
    const path = tmp();
    const child = spawn(process.execPath, [
      '--import',
      'tsx',
      join(import.meta.dirname, '../fixtures/journal-writer.ts'),
      path,
    ]);
    const committed = new Map<number, number>();
    let buffer = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise((r) => child.once('exit', r));
    await new Promise<void>((resolve, reject) => {
      child.once('exit', () => reject(new Error(`writer exited early: ${stderr}`)));
      child.stdout.on('data', (d: Buffer) => {
        buffer += d.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) {
          const [board, seq] = line.split(':').map(Number);
          committed.set(board, seq);
        }
        if ([...committed.values()].some((s) => s > 2000)) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await exited;
    const j = Journal.open(path);
    for (const board of [1, 2, 3]) {
      const seqs = entries(j, 1, board).map((e) => e.seq);
      expect(seqs.length).toBeGreaterThanOrEqual(committed.get(board)!);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    j.close();
  });
});

describe('dump searches kept', () => {
  const found = { lines: [{ moves: ['32-28:', '19-23:'], underWay: false }], total: 1, complete: true };

  it('are kept across a restart, found lines included, and a read-only journal reads them without writing', () => {
    const path = tmp();
    const j = Journal.open(path);
    searchMemoOf(j.searchRows()).note('1:international:500:2000:W:…', { steps: 4, nodes: 2000 });
    searchMemoOf(j.searchRows()).note('found', { steps: 9, nodes: 4321, found });
    j.close();
    const again = Journal.open(path);
    expect(searchMemoOf(again.searchRows()).known('1:international:500:2000:W:…')).toEqual({
      steps: 4,
      nodes: 2000,
    });
    expect(searchMemoOf(again.searchRows()).known('found')).toEqual({ steps: 9, nodes: 4321, found });
    expect(searchMemoOf(again.searchRows()).known('another')).toBeUndefined();
    again.close();
    const reader = Journal.open(path, { readonly: true });
    const memo = searchMemoOf(reader.searchRows());
    memo.note('read-only', { steps: 1, nodes: 500 });
    expect(memo.known('read-only')).toEqual({ steps: 1, nodes: 500 });
    reader.close();
    const after = Journal.open(path);
    expect(searchMemoOf(after.searchRows()).known('read-only')).toBeUndefined();
    after.close();
  });

  it('a table from before found lines were kept gains the column; a row that does not read is left out', () => {
    const path = tmp();
    Journal.open(path).close();
    const db = new Database(path);
    db.exec(
      'DROP TABLE searches; CREATE TABLE searches (key TEXT PRIMARY KEY, steps INTEGER NOT NULL, nodes INTEGER NOT NULL)',
    );
    db.prepare('INSERT INTO searches VALUES (?, ?, ?)').run('old', 3, 1500);
    db.close();
    // Read as it is (an export beside an older daemon), then upgraded by a daemon's open.
    const reader = Journal.open(path, { readonly: true });
    expect(searchMemoOf(reader.searchRows()).known('old')).toEqual({ steps: 3, nodes: 1500 });
    reader.close();
    const j = Journal.open(path);
    expect(searchMemoOf(j.searchRows()).known('old')).toEqual({ steps: 3, nodes: 1500 });
    searchMemoOf(j.searchRows()).note('new', { steps: 2, nodes: 800, found });
    j.close();
    const raw = new Database(path);
    raw.prepare('INSERT INTO searches VALUES (?, ?, ?, ?)').run('garbled', 2, 900, '{"lines": 7}');
    raw.prepare('INSERT INTO searches VALUES (?, ?, ?, ?)').run('cut', 2, 900, '{"lines": [');
    raw
      .prepare('INSERT INTO searches VALUES (?, ?, ?, ?)')
      .run('no-complete', 2, 900, '{"lines": [], "total": 1}');
    raw.close();
    const memo = searchMemoOf(Journal.open(path).searchRows());
    expect(memo.known('new')).toEqual({ steps: 2, nodes: 800, found });
    expect(memo.known('garbled')).toBeUndefined();
    expect(memo.known('cut')).toBeUndefined();
    expect(memo.known('no-complete')).toBeUndefined();
  });
});
