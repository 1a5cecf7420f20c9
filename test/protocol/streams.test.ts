// The host side as streams (LineParser on @serialport/parser-readline, DecoderStream, CommandWriter).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type BoardEvent,
  CommandWriter,
  createBoardEncoder,
  createCommandParser,
  createHostStreams,
  encodeHostCommand,
  LineParser,
  startPosition,
} from '../../firmware-protocol/index.ts';

function collect(stream: NodeJS.ReadableStream): Promise<BoardEvent[]> {
  return new Promise((resolve, reject) => {
    const out: BoardEvent[] = [];
    stream.on('data', (e: BoardEvent) => out.push(e));
    stream.on('end', () => resolve(out));
    stream.on('error', reject);
  });
}

describe('host streams', () => {
  it('LineParser: lines split across writes become events, with times from now()', async () => {
    const enc = createBoardEncoder('line');
    const bytes = Buffer.concat([
      enc.encode({ t: 0, type: 'hello', serial: 'S1', protocol: 'x', squares: 50, senses: 'pieces' }),
      enc.encode({ t: 0, type: 'snapshot', board: startPosition(10) }),
      enc.encode({ t: 0, type: 'lift', square: 32 }),
    ]);
    let clock = 100;
    const parser = new LineParser({}, { now: () => clock++ });
    const done = collect(parser);
    for (let i = 0; i < bytes.length; i += 7) parser.write(bytes.subarray(i, i + 7));
    parser.end(Buffer.from('put 3 2')); // cut short by the end of the stream
    const events = await done;
    expect(events.map((e) => e.type)).toEqual(['hello', 'snapshot', 'lift', 'fault']);
    expect(events[3]).toMatchObject({ code: 'truncated', resync: true });
    expect(events.every((e) => e.t >= 100)).toBe(true);
  });

  it('LineParser: a line without LF past the limit is dropped as line-too-long', async () => {
    const parser = new LineParser({}, { now: () => 0 });
    const done = collect(parser);
    parser.write(Buffer.alloc(300, 0x41));
    parser.end();
    expect((await done).map((e) => (e.type === 'fault' ? e.code : e.type))).toEqual(['line-too-long']);
  });

  it('createHostStreams (DGT): port bytes → events, commands → port bytes', async () => {
    const { parser, writer } = createHostStreams('dgt', {}, { now: () => 5 });
    const port = new PassThrough();
    const sent: Buffer[] = [];
    writer.on('data', (b: Buffer) => sent.push(b));
    port.pipe(parser);
    const done = collect(parser);
    port.end(Buffer.from([0x8e, 0x00, 0x05, 0x1f, 0x00]));
    expect(await done).toEqual([{ t: 5, type: 'lift', square: 32 }]);
    expect(writer.send({ type: 'snapshot' })).toBe(true);
    expect(writer.send({ type: 'leds', squares: [1] })).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(Buffer.concat(sent)).toEqual(Buffer.from([0x50]));
  });

  it('CommandWriter output is what a simulated board parses', async () => {
    const writer = new CommandWriter((cmd) => encodeHostCommand('line', cmd));
    const board = createCommandParser('line');
    const got: unknown[] = [];
    writer.on('data', (b: Buffer) => got.push(...board.push(b)));
    writer.send({ type: 'ping', token: 'a' });
    writer.send({ type: 'identify' });
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual([{ type: 'ping', token: 'a' }, { type: 'identify' }]);
  });
});
