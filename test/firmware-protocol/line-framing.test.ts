// The line protocol's one framing (LineSplitter), as both ends read it: lines split across reads,
// a stream that ends inside a line, a line past MAX_LINE, CR LF endings.
import { describe, expect, it } from 'vitest';
import {
  createBoardEncoder,
  createCommandParser,
  createDecoder,
  encodeHostCommand,
  frameLine,
  MAX_LINE,
  startPosition,
} from '../../firmware-protocol/index.ts';

const codes = (events: { type: string; code?: string }[]) =>
  events.map((e) => (e.type === 'fault' ? `fault:${e.code}` : e.type));

function boardSession(): Buffer {
  const enc = createBoardEncoder('line');
  return Buffer.concat([
    enc.encode({ t: 0, type: 'hello', serial: 'S1', protocol: 'x', squares: 50, senses: 'pieces' }),
    enc.encode({ t: 0, type: 'snapshot', board: startPosition(10) }),
    enc.encode({ t: 0, type: 'lift', square: 32 }),
  ]);
}

describe('line framing (host side)', () => {
  it('lines split across reads become events stamped with the time of the read that ends them', () => {
    const bytes = boardSession();
    const decoder = createDecoder('line');
    const events = [];
    for (let i = 0, t = 100; i < bytes.length; i += 7, t++)
      events.push(...decoder.push(bytes.subarray(i, i + 7), t));
    expect(codes(events)).toEqual(['hello', 'snapshot', 'lift']);
    // The lift line ends in the last read.
    expect(events[2].t).toBe(100 + Math.ceil(bytes.length / 7) - 1);
  });

  it('a stream that ends inside a line reports it as truncated, with a resync', () => {
    const decoder = createDecoder('line');
    expect(codes(decoder.push(boardSession(), 0))).toEqual(['hello', 'snapshot', 'lift']);
    expect(decoder.push(Buffer.from('put 3 2'), 1)).toEqual([]);
    expect(decoder.flush(2)).toEqual([
      expect.objectContaining({ t: 2, type: 'fault', code: 'truncated', resync: true, offset: 4 }),
    ]);
    expect(decoder.flush(3)).toEqual([]);
  });

  it('a line past MAX_LINE is line-too-long as soon as it passes the limit; after its LF the next line decodes', () => {
    const decoder = createDecoder('line');
    // Longer than the splitter holds, in two reads: reported in the read that passes the limit.
    expect(decoder.push(Buffer.alloc(MAX_LINE, 0x41), 0)).toEqual([]);
    const passed = decoder.push(Buffer.alloc(MAX_LINE, 0x41), 0);
    expect(codes(passed)).toEqual(['fault:line-too-long']);
    expect(passed[0]).toMatchObject({ resync: true, offset: 1 });
    const after = decoder.push(Buffer.concat([Buffer.from('\n'), boardSession()]), 1);
    expect(codes(after)).toEqual(['hello', 'snapshot', 'lift']);
  });

  it('a line past MAX_LINE that the stream ends inside is truncated', () => {
    const decoder = createDecoder('line');
    expect(codes(decoder.push(Buffer.alloc(3 * MAX_LINE, 0x41), 0))).toEqual(['fault:line-too-long']);
    expect(codes(decoder.flush(1))).toEqual(['fault:truncated']);
  });

  it('a line of exactly MAX_LINE characters and CR LF is accepted', () => {
    const body = `fault 0 x ${'y'.repeat(MAX_LINE - 15)}`;
    const line = frameLine(body);
    expect(line.length - 1).toBe(MAX_LINE);
    const events = createDecoder('line').push(Buffer.from(`${line.slice(0, -1)}\r\n`), 0);
    expect(events).toEqual([expect.objectContaining({ type: 'fault', code: 'board-x' })]);
  });
});

describe('line framing (board side)', () => {
  it('host lines split across reads and CR LF endings are parsed; a line past MAX_LINE is dropped', () => {
    const parser = createCommandParser('line');
    const ping = Buffer.from(encodeHostCommand('line', { type: 'ping', token: 'a' }));
    const ident = Buffer.from(encodeHostCommand('line', { type: 'identify' }));
    const crlf = Buffer.concat([ident.subarray(0, -1), Buffer.from('\r\n')]);
    const got = [
      ...parser.push(ping.subarray(0, 5)),
      ...parser.push(Buffer.concat([ping.subarray(5), crlf])),
      // A valid line behind more than MAX_LINE bytes without LF is part of that too-long line.
      ...parser.push(Buffer.concat([Buffer.alloc(MAX_LINE + 1, 0x41), ping])),
      ...parser.push(ident),
    ];
    expect(got).toEqual([{ type: 'ping', token: 'a' }, { type: 'identify' }, { type: 'identify' }]);
  });

  it('host lines with bad arguments are dropped', () => {
    const parser = createCommandParser('line');
    const bad = ['clock 1 2 x', 'leds 0,51', 'clock a 2 w'].map(frameLine).join('');
    expect(parser.push(Buffer.from(bad))).toEqual([]);
    expect(parser.push(Buffer.from(frameLine('clock 1000 2000 w')))).toEqual([
      { type: 'set-clock', white: 1000, black: 2000, running: 'white' },
    ]);
  });
});
