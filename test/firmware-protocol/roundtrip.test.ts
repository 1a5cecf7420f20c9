// Every message type of each protocol: board-side encode → host decode gives the event back, and
// every host command: host encode → board-side parse gives the command back.
import { describe, expect, it } from 'vitest';
import {
  type BoardEvent,
  boardReply,
  CLOCK,
  CLOCK_ACK,
  canEncodeHostCommand,
  createBoardEncoder,
  DGT_SCAN_MS,
  createCommandParser,
  createDecoder,
  type DgtMessage,
  encodeDgtClockAck,
  encodeDgtMessage,
  encodeHostCommand,
  type HostCommand,
  type ProtocolName,
  startPosition,
} from '../../firmware-protocol/index.ts';

const START = startPosition(10);
const MIDGAME = `${'b'.repeat(12)}W.......B${'.'.repeat(17)}${'w'.repeat(10)}.o`.slice(0, 50);

function roundtrip(protocol: ProtocolName, events: BoardEvent[], options = {}): BoardEvent[] {
  const enc = createBoardEncoder(protocol, options);
  const dec = createDecoder(protocol, options);
  return events.flatMap((e) => dec.push(enc.encode(e), e.t));
}

const hello = (protocol: string, extra: Partial<BoardEvent> = {}): BoardEvent =>
  ({
    t: 1,
    type: 'hello',
    serial: '12345',
    protocol,
    firmware: '1.02',
    squares: 50,
    senses: 'pieces',
    // A DGT board's hello tells its scan period (PROTOCOL.md 2.5).
    ...(protocol === 'dgt' ? { scanMs: DGT_SCAN_MS } : {}),
    ...extra,
  }) as BoardEvent;

describe('line protocol round trip', () => {
  const events: BoardEvent[] = [
    hello('damlink-line/1.0', { capabilities: ['clock', 'text', 'leds'] }),
    { t: 2, type: 'snapshot', board: START },
    { t: 3, type: 'lift', square: 32 },
    { t: 4, type: 'put', square: 28, piece: 'w' },
    { t: 4, type: 'put', square: 50, piece: 'B' },
    { t: 5, type: 'put', square: 1 },
    { t: 6, type: 'clock', white: 1_800_000, black: 1_799_500, running: 'black' },
    { t: 6, type: 'clock', white: 0, black: 5, running: null },
    { t: 7, type: 'press', side: 'white' },
    { t: 8, type: 'tick', reply: 'pong' },
    { t: 9, type: 'fault', code: 'board-sensor', message: 'square 12 stuck', resync: true },
    { t: 10, type: 'snapshot', board: MIDGAME },
  ];
  it('every board line type comes back as it went in', () => {
    expect(roundtrip('line', events)).toEqual(events);
  });
  it('sequence numbers wrap 255 → 0 without a fault', () => {
    const many: BoardEvent[] = Array.from({ length: 600 }, (_, i) => ({
      t: i,
      type: 'lift',
      square: 1 + (i % 50),
    }));
    expect(roundtrip('line', many)).toEqual(many);
  });
  it('an occupancy-only 8×8 board', () => {
    const e: BoardEvent[] = [
      { t: 1, type: 'hello', serial: 'S8', protocol: 'damlink-line/1.0', squares: 32, senses: 'occupancy' },
      { t: 2, type: 'snapshot', board: `${'o'.repeat(12)}${'.'.repeat(8)}${'o'.repeat(12)}` },
      { t: 3, type: 'put', square: 32 },
    ];
    expect(roundtrip('line', e)).toEqual(e);
  });
  it('a square beyond 32 on an 8×8 board is refused', () => {
    const out = roundtrip('line', [
      { t: 1, type: 'hello', serial: 'S8', protocol: 'x', squares: 32, senses: 'occupancy' },
      { t: 2, type: 'lift', square: 40 },
    ]);
    expect(out.at(-1)).toMatchObject({ type: 'fault', code: 'bad-args', resync: true });
  });
});

describe('DGT round trip', () => {
  it('hello (version + serial), dumps, field updates, clock, press, keep-alive', () => {
    const events: BoardEvent[] = [
      hello('dgt'),
      { t: 2, type: 'snapshot', board: START },
      { t: 3, type: 'lift', square: 32 },
      { t: 4, type: 'put', square: 28, piece: 'w' },
      { t: 4, type: 'put', square: 49, piece: 'W' },
      { t: 4, type: 'put', square: 2, piece: 'B' },
      { t: 5, type: 'clock', white: 5_400_000, black: 5_399_000, running: 'white' },
      { t: 8, type: 'tick', reply: 'pong' },
    ];
    expect(roundtrip('dgt', events)).toEqual(events);
  });
  it('a press arrives as the press and the clock reading of the same BWTIME', () => {
    const out = roundtrip('dgt', [
      { t: 1, type: 'clock', white: 60_000, black: 60_000, running: 'white' },
      { t: 2, type: 'press', side: 'white' },
    ]);
    expect(out).toEqual([
      { t: 1, type: 'clock', white: 60_000, black: 60_000, running: 'white' },
      { t: 2, type: 'press', side: 'white' },
      { t: 2, type: 'clock', white: 60_000, black: 60_000, running: 'black' },
    ]);
  });
  it('clock sides follow clockWhite, not the board orientation', () => {
    const e: BoardEvent[] = [{ t: 1, type: 'clock', white: 3_000, black: 9_000, running: 'black' }];
    expect(roundtrip('dgt', e, { clockWhite: 'right' })).toEqual(e);
    const bytes = createBoardEncoder('dgt', { clockWhite: 'right' }).encode(e[0]);
    // Right side (White) 0:00:03 in b3..b5, left (Black) 0:00:09 in b6..b8, running + left's turn.
    expect(Buffer.from(bytes).toString('hex')).toBe('8d000a000003000009' + '11');
  });
  it('a long (10-digit) serial number', () => {
    const e = [hello('dgt', { serial: '0123456789' })];
    expect(roundtrip('dgt', e)).toEqual(e);
  });
  it('100-field scan: 103-byte dump and field updates through the full-scan map', () => {
    const events: BoardEvent[] = [
      { t: 2, type: 'snapshot', board: START },
      { t: 3, type: 'lift', square: 31 },
      { t: 4, type: 'put', square: 26, piece: 'w' },
      hello('dgt', { squares: 100 }),
    ];
    const enc = createBoardEncoder('dgt', { scan: '100' });
    expect(enc.encode(events[0]).length).toBe(103);
    expect(roundtrip('dgt', events, { scan: '100' })).toEqual(events);
  });
  it('8×8 board: 67-byte dump of 64 fields', () => {
    const board = startPosition(8);
    const events: BoardEvent[] = [
      { t: 2, type: 'snapshot', board },
      { t: 3, type: 'lift', square: 21 },
      { t: 4, type: 'put', square: 17, piece: 'w' },
    ];
    expect(createBoardEncoder('dgt', { size: 8 }).encode(events[0]).length).toBe(67);
    expect(roundtrip('dgt', events, { size: 8 })).toEqual(events);
  });
  it('a board standing turned: detected from the start position, applied to later updates', () => {
    const events: BoardEvent[] = [
      { t: 1, type: 'snapshot', board: START },
      { t: 2, type: 'lift', square: 32 },
      { t: 3, type: 'put', square: 28, piece: 'w' },
    ];
    const enc = createBoardEncoder('dgt', { orientation: 'rotated' });
    // Physically White stands on fields 0–19.
    expect([...enc.encode(events[0]).subarray(3, 23)].every((b) => b === 0x01)).toBe(true);
    expect(roundtrip('dgt', events, { orientation: 'rotated' }).length).toBe(3);
    const dec = createDecoder('dgt');
    const enc2 = createBoardEncoder('dgt', { orientation: 'rotated' });
    expect(events.flatMap((e) => dec.push(enc2.encode(e), e.t))).toEqual(events);
  });
  it('wire messages without a board event: trademark, 50W dump, clock ack', () => {
    // A 50W dump is read only through its own map: its order is not the 50B dump's.
    const dec = createDecoder('dgt', {
      fieldMap: { fields50W: Array.from({ length: 50 }, (_, i) => i + 1) },
    });
    const msgs: DgtMessage[] = [
      { kind: 'trademark', text: 'Digital Game Technology' },
      { kind: 'dump-50w', fields: Array.from({ length: 50 }, (_, i) => (i < 20 ? 4 : i >= 30 ? 1 : 0)) },
    ];
    expect(dec.push(encodeDgtMessage(msgs[0]), 1)).toEqual([{ t: 1, type: 'tick', reply: 'pong' }]);
    expect(dec.push(encodeDgtMessage(msgs[1]), 2)).toEqual([{ t: 2, type: 'snapshot', board: START }]);
    // The ack names the command it acknowledges: SETNRUN (0x0a).
    expect(dec.push(encodeDgtClockAck(CLOCK.SETNRUN), 3)).toEqual([
      { t: 3, type: 'tick', reply: 'ack', command: CLOCK.SETNRUN },
    ]);
  });
  it('a 50W dump without fields50W: a fault, no snapshot', () => {
    const dump = encodeDgtMessage({ kind: 'dump-50w', fields: new Array(50).fill(1) });
    expect(createDecoder('dgt').push(dump, 1)).toEqual([
      { t: 1, type: 'fault', code: 'unmapped-dump', message: expect.stringMatching(/fields50W/), offset: 0 },
    ]);
  });
  it('a refused clock command (ack0 0x40) is a clock-error fault, not an ack', () => {
    const events = createDecoder('dgt').push(encodeDgtClockAck(CLOCK.SETNRUN, CLOCK_ACK.ERROR), 4);
    expect(events).toEqual([
      {
        t: 4,
        type: 'fault',
        code: 'clock-error',
        message: expect.stringMatching(/SETNRUN \(0x0a\)/),
        offset: 0,
        command: CLOCK.SETNRUN,
      },
    ]);
  });
});

describe('HID round trip', () => {
  it('snapshot, then every change as lift / put', () => {
    const events: BoardEvent[] = [
      { t: 1, type: 'snapshot', board: START },
      { t: 2, type: 'lift', square: 32 },
      { t: 3, type: 'put', square: 28, piece: 'w' },
      { t: 4, type: 'put', square: 22, piece: 'B' },
      { t: 5, type: 'put', square: 23 },
    ];
    expect(roundtrip('hid', events)).toEqual(events);
  });
  it('a custom layout: 8 bits a cell, no report id, 8×8 all-squares cells', () => {
    const hidLayout = {
      reportId: null,
      offset: 2,
      cells: 64 as const,
      bitsPerCell: 8 as const,
      nibbleOrder: 'low-first' as const,
      codes: { empty: 0, w: 7, b: 4, W: 11, B: 1 },
      realtimeCommand: [0x21, 0x01, 0x00],
    };
    const board = startPosition(8);
    const events: BoardEvent[] = [
      { t: 1, type: 'snapshot', board },
      { t: 2, type: 'lift', square: 22 },
      { t: 3, type: 'put', square: 18, piece: 'W' },
    ];
    expect(createBoardEncoder('hid', { hidLayout }).encode(events[0]).length).toBe(66);
    expect(roundtrip('hid', events, { hidLayout })).toEqual(events);
  });
});

describe('host commands: host encode → board-side parse', () => {
  const all: HostCommand[] = [
    { type: 'snapshot' },
    { type: 'ping', token: 'k7' },
    { type: 'identify' },
    { type: 'set-clock', white: 5_400_000, black: 3_723_000, running: 'black' },
    { type: 'set-clock', white: 60_000, black: 60_000, running: null },
    { type: 'display', text: '32-28' },
    { type: 'leds', squares: [32, 28] },
    { type: 'leds', squares: [] },
    { type: 'reset' },
    { type: 'update-mode', mode: 'changes' },
    { type: 'update-mode', mode: 'changes+clock' },
    { type: 'update-mode', mode: 'changes+clock-nice' },
    { type: 'clock-request' },
    { type: 'serial' },
    { type: 'serial', long: true },
    { type: 'version' },
    { type: 'trademark' },
    { type: 'scan-mode', scan: '100' },
    { type: 'realtime' },
  ];
  const expectations: Record<ProtocolName, (cmd: HostCommand) => HostCommand[] | undefined> = {
    line: (c) =>
      ['snapshot', 'ping', 'identify', 'set-clock', 'display', 'leds'].includes(c.type) ? [c] : undefined,
    dgt: (c) => {
      switch (c.type) {
        case 'ping':
          return [{ type: 'serial' }];
        case 'identify':
          return [{ type: 'version' }, { type: 'serial' }];
        case 'leds':
        case 'realtime':
        case 'scan-mode':
          return undefined;
        default:
          return [c];
      }
    },
    hid: (c) => (c.type === 'snapshot' || c.type === 'realtime' ? [c] : undefined),
  };
  for (const protocol of ['line', 'dgt', 'hid'] as const) {
    it(`${protocol}: each command it can say comes back; the others encode to nothing`, () => {
      for (const cmd of all) {
        const want = expectations[protocol](cmd);
        const bytes = encodeHostCommand(protocol, cmd);
        if (!want) {
          expect(bytes.length, JSON.stringify(cmd)).toBe(0);
          expect(canEncodeHostCommand(protocol, cmd)).toBe(false);
          continue;
        }
        expect(createCommandParser(protocol).push(bytes), JSON.stringify(cmd)).toEqual(want);
      }
    });
  }
  it('DGT: the EEPROM scan commands 0x51/0x53/0x54 only with allowEepromScanCommands', () => {
    for (const [scan, byte] of [
      ['50B', 0x51],
      ['50W', 0x53],
      ['100', 0x54],
    ] as const) {
      expect(encodeHostCommand('dgt', { type: 'scan-mode', scan }).length).toBe(0);
      expect([
        ...encodeHostCommand('dgt', { type: 'scan-mode', scan }, { allowEepromScanCommands: true }),
      ]).toEqual([byte]);
    }
    for (const cmd of all) {
      const bytes = encodeHostCommand('dgt', cmd);
      expect([...bytes].some((b) => b === 0x51 || b === 0x53 || b === 0x54) && bytes[0] !== 0x2b).toBe(false);
    }
  });
  it('DGT: SETNRUN bytes as open drivers send them', () => {
    const bytes = encodeHostCommand('dgt', {
      type: 'set-clock',
      white: 5_400_000,
      black: 3_723_000,
      running: 'black',
    });
    // 2b 0a 03 0a | left (White) 1:30:00 | right (Black) 1:02:03 | right runs | 00, then END: 2b 03 03 03 00
    expect(Buffer.from(bytes).toString('hex')).toBe('2b0a030a011e0001020302' + '00' + '2b03030300');
    expect(CLOCK.END).toBe(0x03);
    expect(CLOCK.END_MESSAGE).toBe(0x00);
  });
  it('DGT: snapshot asks for the 50B dump in 50-field scan, the full board otherwise', () => {
    expect([...encodeHostCommand('dgt', { type: 'snapshot' })]).toEqual([0x50]);
    expect([...encodeHostCommand('dgt', { type: 'snapshot' }, { scan: '100' })]).toEqual([0x42]);
    expect([...encodeHostCommand('dgt', { type: 'snapshot' }, { size: 8 })]).toEqual([0x42]);
  });
  it('line: a host line with a bad checksum is ignored by the board', () => {
    const bytes = Buffer.from(encodeHostCommand('line', { type: 'snapshot' }));
    bytes[0] = 'D'.charCodeAt(0);
    expect(createCommandParser('line').push(bytes)).toEqual([]);
  });
});

describe('boardReply: a simulated board answers the host', () => {
  const state = {
    board: START,
    hello: {
      t: 0,
      type: 'hello',
      serial: '04711',
      protocol: 'x',
      firmware: '1.02',
      squares: 50,
      senses: 'pieces',
    } as const,
  };
  for (const protocol of ['line', 'dgt'] as const) {
    it(`${protocol}: identify → hello, ping → pong, snapshot → the board`, () => {
      const board = createBoardEncoder(protocol);
      const commands = createCommandParser(protocol);
      const host = createDecoder(protocol);
      const ask = (cmd: HostCommand, t: number) =>
        commands
          .push(encodeHostCommand(protocol, cmd))
          .flatMap((c) => host.push(boardReply(board, c, state, t), t));
      const hello = ask({ type: 'identify' }, 1);
      expect(hello[0]).toMatchObject({ type: 'hello', serial: '04711', firmware: '1.02' });
      expect(ask({ type: 'ping' }, 2)).toEqual([{ t: 2, type: 'tick', reply: 'pong' }]);
      expect(ask({ type: 'snapshot' }, 3)).toEqual([{ t: 3, type: 'snapshot', board: START }]);
    });
  }
  it('dgt: set-clock and display are acknowledged', () => {
    const board = createBoardEncoder('dgt');
    const host = createDecoder('dgt');
    for (const [cmd, command] of [
      [{ type: 'set-clock', white: 1000, black: 1000, running: null }, CLOCK.SETNRUN],
      [{ type: 'display', text: 'hi' }, CLOCK.ASCII],
    ] as [HostCommand, number][]) {
      const [parsed] = createCommandParser('dgt').push(encodeHostCommand('dgt', cmd));
      expect(host.push(boardReply(board, parsed, state, 5), 5)).toEqual([
        { t: 5, type: 'tick', reply: 'ack', command },
      ]);
    }
  });
});
