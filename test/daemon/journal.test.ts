import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../daemon/journal/index.ts';

const tmp = (): string => join(mkdtempSync(join(tmpdir(), 'damlink-journal-')), 'journal.sqlite');

describe('journal', () => {
  it('keeps entries per board in order with gapless sequence numbers, raw bytes included', () => {
    const j = Journal.open(tmp());
    j.append({
      round: 1,
      board: 2,
      t: 10,
      serial: 'S2',
      input: { kind: 'event', event: { t: 10, type: 'lift', square: 32 } },
      raw: new Uint8Array([1, 2]),
    });
    j.append({ round: 1, board: 1, t: 11, input: { kind: 'result', result: '1-1' } });
    j.append({
      round: 1,
      board: 2,
      t: 12,
      input: { kind: 'decision', decision: { alertId: '3-5.4.6-1', kind: 'stands' } },
    });
    const two = [...j.entries(1, 2)];
    expect(two.map((e) => [e.seq, e.input.kind])).toEqual([
      [1, 'event'],
      [2, 'decision'],
    ]);
    expect(two[0]).toMatchObject({ serial: 'S2', input: { event: { type: 'lift', square: 32 } } });
    expect([...two[0].raw!]).toEqual([1, 2]);
    expect([...j.entries(1, 1)][0].input).toEqual({ kind: 'result', result: '1-1' });
    expect(j.boards(1)).toEqual([1, 2]);
    expect([...j.entries(1, 2, 1)].map((e) => e.seq)).toEqual([2]);
    j.close();
  });

  it('continues the sequence after a reopen and remembers serial bindings', () => {
    const path = tmp();
    const a = Journal.open(path);
    a.append({ round: 1, board: 1, t: 1, input: { kind: 'state', state: 'active', serial: 'X' } });
    a.bind(1, 'X', 4);
    a.close();
    const b = Journal.open(path);
    expect(b.append({ round: 1, board: 1, t: 2, input: { kind: 'state', state: 'lost' } }).seq).toBe(2);
    expect(b.bindings(1).get('X')).toBe(4);
    expect(b.bindings(2).size).toBe(0);
    b.close();
  });

  it('loses no committed entry and leaves no gap when the writer is killed with SIGKILL', async () => {
    const path = tmp();
    const child = spawn(process.execPath, [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures/journal-writer.ts'),
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
      const seqs = [...j.entries(1, board)].map((e) => e.seq);
      expect(seqs.length).toBeGreaterThanOrEqual(committed.get(board)!);
      expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    }
    j.close();
  });
});
