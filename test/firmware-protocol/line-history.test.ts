// Line protocol 1.1 and its capability `history`, both ways round: a 1.0 host reads a 1.1 board's
// lines as 1.0 lines (the reader below is PROTOCOL.md 1.5 and 1.10 as a 1.0 host applies them, not
// damlink's decoder), a 1.1 host reads a 1.0 board as before, and `history` goes only to a board that
// announced it.
import { describe, expect, it } from 'vitest';
import {
  type BoardEvent,
  commandRoute,
  createBoardEncoder,
  createCommandParser,
  createDecoder,
  encodeHostCommand,
  frameLine,
  type HelloEvent,
  unframeLine,
} from '../../firmware-protocol/index.ts';
import { loadVectors } from './fixtures/vectors.ts';

const history = loadVectors().filter((v) => v.name.startsWith('line-history'));
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * A 1.0 host's reading of one board line (PROTOCOL.md 1.0, sections 1.5 and 1.10): `lift SEQ SQ`,
 * `put SEQ SQ [P]` (P one of w b W B, or o), `press SEQ SIDE`; extra trailing arguments ignored,
 * line types it does not know ignored.
 */
function readAs10(line: string): string | undefined {
  const body = unframeLine(line.trimEnd());
  if (!body.ok) throw new Error(body.error.message);
  const [type, _seq, ...args] = body.value.split(' ');
  if (type === 'lift') return `lift ${args[0]}`;
  if (type === 'put') {
    if (args[1] !== undefined && !['w', 'b', 'W', 'B', 'o'].includes(args[1]))
      throw new Error(`a 1.0 host refuses the piece "${args[1]}"`);
    return args[1] && args[1] !== 'o' ? `put ${args[0]} ${args[1]}` : `put ${args[0]}`;
  }
  if (type === 'press') return `press ${args[0]}`;
  return undefined;
}

const said = (e: BoardEvent): string | undefined =>
  e.type === 'lift'
    ? `lift ${e.square}`
    : e.type === 'put'
      ? `put ${e.square}${e.piece ? ` ${e.piece}` : ''}`
      : e.type === 'press'
        ? `press ${e.side[0]}`
        : undefined;

describe('line protocol 1.1: history (PROTOCOL.md 1.13)', () => {
  it('has vectors of a history board, pieces and occupancy', () => {
    expect(history.map((v) => v.name).sort()).toEqual(['line-history-occupancy.json', 'line-history.json']);
  });

  it('a 1.0 host reads every live line of a 1.1 history board as the same change, and ignores rec/recs', () => {
    for (const v of history) {
      const lines = v.input.flatMap((c) =>
        text(c.bytes)
          .split(/(?<=\n)/)
          .filter(Boolean),
      );
      const as10 = lines.map(readAs10).filter((x) => x !== undefined);
      const live = v.expected.filter((e) => !('stamp' in e && e.stamp?.recalled)).map(said);
      expect(as10).toEqual(live.filter((x) => x !== undefined));
      expect(as10.length).toBeGreaterThan(0);
    }
  });

  it('a 1.1 host reads the stamps: number and board time of each change, recalled ones marked', () => {
    const v = history.find((h) => h.name === 'line-history.json')!;
    const dec = createDecoder('line', {});
    const events = v.input.flatMap((c) => dec.push(c.bytes, c.t));
    expect(events.find((e) => e.type === 'hello')).toMatchObject({
      protocol: 'damlink-line/1.1',
      capabilities: ['clock', 'history'],
      boot: '7f3a2c11',
    });
    expect(events.filter((e) => e.type === 'lift')).toEqual([
      { t: 1000, type: 'lift', square: 32, stamp: { n: 1, ms: 61250 } },
      { t: 9000, type: 'lift', square: 19, stamp: { n: 4, ms: 64010, recalled: true } },
    ]);
    expect(events.filter((e) => e.type === 'history-end')).toEqual([
      { t: 9000, type: 'history-end', outcome: 'done', last: 6, ms: 68750 },
      { t: 20000, type: 'history-end', outcome: 'gone', first: 2, last: 4100, ms: 980000 },
    ]);
    expect(events.some((e) => e.type === 'fault')).toBe(false);
  });

  it('a 1.1 host reads a 1.0 board: no stamps, no boot, and no history asked of it', () => {
    const enc = createBoardEncoder('line', {});
    const hello: HelloEvent = {
      t: 0,
      type: 'hello',
      serial: 'OLD-1',
      protocol: 'damlink-line/1.0',
      squares: 50,
      senses: 'pieces',
      capabilities: ['clock'],
    };
    const bytes = [hello, { t: 0, type: 'lift', square: 32 } as const].map((e) => text(enc.encode(e)));
    expect(bytes[0]).toMatch(/^hello 0 1\.0 serial=OLD-1 /);
    const events = createDecoder('line', {}).push(new TextEncoder().encode(bytes.join('')), 5);
    expect(events).toEqual([
      { ...hello, t: 5 },
      { t: 5, type: 'lift', square: 32 },
    ]);
    const ask = { type: 'history', after: 12 } as const;
    expect(commandRoute('line', ask, true, events[0] as HelloEvent)).toEqual({
      send: false,
      reason: 'no-capability',
    });
    expect(commandRoute('line', ask, true, { ...hello, capabilities: ['history'] })).toEqual({ send: true });
  });

  it('the host line `history N` is what a board parses back; a DGT board is asked for its record, HID boards cannot be', () => {
    const line = text(encodeHostCommand('line', { type: 'history', after: 4095 }));
    expect(line).toMatch(/^history 4095\*[0-9A-F]{4}\n$/);
    expect(createCommandParser('line', {}).push(new TextEncoder().encode(line))).toEqual([
      { type: 'history', after: 4095 },
    ]);
    expect([...encodeHostCommand('dgt', { type: 'history', after: 1 })]).toEqual([0x49]);
    expect(encodeHostCommand('hid', { type: 'history', after: 1 }).length).toBe(0);
  });

  it('malformed rec and recs lines are bad-args faults (resync), stamps out of range are not stamps', () => {
    const dec = createDecoder('line', {});
    const lines = [
      'rec 0 x 100 lift 32',
      'rec 1 5 100 jump 32',
      'recs 2 done 7',
      'lift 3 32 0 100',
      'lift 4 33 4294967296 100',
    ];
    const events = dec.push(new TextEncoder().encode(lines.map(frameLine).join('')), 1);
    expect(
      events.filter((e) => e.type === 'fault').map((e) => e.type === 'fault' && [e.code, e.resync]),
    ).toEqual([
      ['bad-args', true],
      ['bad-args', true],
      ['bad-args', true],
    ]);
    // Number 0 is no change's number, and 2^32 is past a 32-bit counter: read as 1.0 lifts.
    expect(events.filter((e) => e.type === 'lift')).toEqual([
      { t: 1, type: 'lift', square: 32 },
      { t: 1, type: 'lift', square: 33 },
    ]);
  });
});
