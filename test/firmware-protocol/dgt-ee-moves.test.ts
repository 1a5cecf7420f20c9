// A DGT board's own record (EE_MOVES, DGT's dgtbrd.h): piece and time tags written by the simulated
// board as the header describes them, read back by the host through the board's field map and piece
// codes; a cyclic buffer that wrapped; and where the host's last stored changes join the record.
import { describe, expect, it } from 'vitest';
import { CatchUp, joinRecord } from '../../daemon/transport/catch-up.ts';
import {
  type BoardEvent,
  createBoardEncoder,
  createDecoder,
  encodeHostCommand,
  type ProtocolOptions,
} from '../../firmware-protocol/index.ts';
import {
  EE,
  EE_BUFFER_SIZE,
  EeLog,
  eeEntryBytes,
  parseEeMoves,
} from '../../firmware-protocol/dgt/ee-moves.ts';

const START = 'bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww';

/** What the simulated DGT board writes for these events, and the record it answers 0x49 with. */
function recordOf(events: BoardEvent[], options: ProtocolOptions = {}): Uint8Array {
  const board = createBoardEncoder('dgt', options);
  for (const e of events) board.remember!(e);
  return board.eeMoves!();
}

function readBack(bytes: Uint8Array, options: ProtocolOptions = {}) {
  const out = createDecoder('dgt', options).push(bytes, 500);
  expect(out).toHaveLength(1);
  const [log] = out;
  if (log.type !== 'history-log') throw new Error(`expected the record, got ${log.type}`);
  return log;
}

describe('DGT EE_MOVES (the board record)', () => {
  it('piece tags (r set within 250 ms), time tags in BCD and one-byte tags read back as written', () => {
    const entries = [
      { kind: 'tag', tag: 'powerup' },
      { kind: 'tag', tag: 'fourrows' },
      { kind: 'piece', field: 31, code: 0, quick: false },
      { kind: 'piece', field: 27, code: 1, quick: true },
      { kind: 'time', side: 'left', seconds: 3 * 3600 + 59 * 60 + 7 },
      { kind: 'time', side: 'right', seconds: 45 },
    ] as const;
    const bytes = Uint8Array.from([...entries.flatMap((e) => eeEntryBytes(e)), EE.EOF]);
    expect([...bytes]).toEqual([0x6a, 0x6c, 0x40, 31, 0x51, 27, 0x73, 0x59, 0x07, 0x60, 0x00, 0x45, 0x6b]);
    expect(parseEeMoves(bytes)).toEqual({ entries, skipped: 0 });
    // Not a record: a piece tag whose field byte is past 63, a minute byte that is no BCD.
    expect(parseEeMoves(Uint8Array.from([0x40, 0x50, 0x40, 0x70, 0x6b]))).toBeUndefined();
  });

  it("the host reads a quiet move and a capture from the simulated board's record, spaced by its r bits", () => {
    const events: BoardEvent[] = [
      { t: 0, type: 'snapshot', board: START },
      { t: 1000, type: 'lift', square: 32 },
      { t: 1100, type: 'put', square: 28, piece: 'w' },
      { t: 1400, type: 'press', side: 'white' },
      { t: 5000, type: 'lift', square: 19 },
      { t: 5600, type: 'put', square: 23, piece: 'b' },
    ];
    const log = readBack(recordOf(events));
    expect(log.changes.map((c) => [c.type, c.square, c.type === 'put' ? c.piece : undefined])).toEqual([
      ['lift', 32, undefined],
      ['put', 28, 'w'],
      ['lift', 19, undefined],
      ['put', 23, 'b'],
    ]);
    // 1 s apart unless the record says within 250 ms (the put on 28: 100 ms); the record's end 1 s on.
    expect(log.changes.map((c) => c.stamp)).toEqual([
      { n: 1, ms: 1000, recalled: true },
      { n: 2, ms: 1100, recalled: true },
      { n: 3, ms: 2100, recalled: true },
      { n: 4, ms: 3100, recalled: true },
    ]);
    expect(log.ms).toBe(4100);
  });

  it('a calibrated board: its own field order and piece codes, in the record as in its field updates', () => {
    const backwards = Array.from({ length: 50 }, (_, i) => 50 - i);
    const options: ProtocolOptions = {
      fieldMap: { fields50: backwards },
      pieceCodes: { w: 4, b: 1, W: 10, B: 7 },
      orientation: 'normal',
    };
    const bytes = recordOf(
      [
        { t: 1000, type: 'lift', square: 32 },
        { t: 1300, type: 'put', square: 28, piece: 'w' },
      ],
      options,
    );
    // Square 32 is field 18 of this board, a white man its code 4.
    expect([...bytes.subarray(3, 7)]).toEqual([0x40, 18, 0x44, 22]);
    expect(
      readBack(bytes, options).changes.map((c) => [c.type, c.square, c.type === 'put' && c.piece]),
    ).toEqual([
      ['lift', 32, false],
      ['put', 28, 'w'],
    ]);
  });

  it('a cyclic buffer that wrapped: 0x1f00 bytes, the oldest entry cut, the newest ones whole', () => {
    let t = 0;
    // 4 000 changes of two bytes and a time tag after each 100: 8 120 bytes, past 0x1f00.
    const events: BoardEvent[] = [];
    for (let i = 0; i < 4000; i++) {
      events.push(
        i % 2 === 0
          ? { t: (t += 400), type: 'lift', square: 32 }
          : { t: (t += 400), type: 'put', square: 32, piece: 'w' },
      );
      if (i % 100 === 99) events.push({ t, type: 'press', side: 'white' });
    }
    const bytes = recordOf(events);
    expect(bytes.length).toBe(3 + EE_BUFFER_SIZE);
    const data = bytes.subarray(3);
    const parsed = parseEeMoves(data)!;
    expect(parsed.skipped).toBeLessThan(3);
    const pieces = parsed.entries.filter((e) => e.kind === 'piece');
    // The newest change last, as the board made it.
    expect(pieces.at(-1)).toEqual({ kind: 'piece', field: 31, code: 1, quick: false });
    expect(pieces.length).toBeGreaterThan(3800);
    // The board side's buffer alone: written past its size, it gives its last size − 1 bytes and EOF.
    const small = new EeLog(8);
    for (let i = 0; i < 5; i++) small.write({ kind: 'piece', field: i, code: 1, quick: false });
    // Ten bytes written into eight: the last seven, the first of them the field of a cut entry.
    expect([...small.bytes()]).toEqual([1, 0x41, 2, 0x41, 3, 0x41, 4, EE.EOF]);
    expect(parseEeMoves(small.bytes())).toEqual({
      skipped: 1,
      entries: [2, 3, 4].map((field) => ({ kind: 'piece', field, code: 1, quick: false })),
    });
  });

  it('0x49 asks for the record; the host finds its last stored changes in it and takes what follows', () => {
    expect([...encodeHostCommand('dgt', { type: 'history', after: 0 })]).toEqual([0x49]);
    const record = [
      { type: 'lift', square: 32 },
      { type: 'put', square: 28, piece: 'w' },
      { type: 'lift', square: 19 },
      { type: 'put', square: 23, piece: 'b' },
      { type: 'lift', square: 28 },
      { type: 'put', square: 28, piece: 'w' },
      { type: 'lift', square: 37 },
    ] as const;
    expect(joinRecord(record, record.slice(0, 2))).toBe(2);
    // The latest place the tail matches.
    expect(joinRecord(record, [{ type: 'put', square: 28, piece: 'w' }])).toBe(6);
    // A tail the record does not hold: nothing can be said of what came after it.
    expect(joinRecord(record, [{ type: 'lift', square: 40 }])).toBeUndefined();
    expect(joinRecord(record, [])).toBeUndefined();
  });

  it('a record that does not hold the last stored changes: what was held goes on, and the board is read afresh', () => {
    const log = readBack(recordOf([{ t: 1000, type: 'lift', square: 33 }]));
    const caught = new CatchUp(0, true, 0, 1, [], 15_000, [{ type: 'lift', square: 32 }]);
    const answer = caught.record(log, 10);
    expect(answer.kind).toBe('fallback');
  });
});
