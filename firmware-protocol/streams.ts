// Stream plumbing for the daemon, zigbee-herdsman style: per protocol a parser (bytes → BoardEvents,
// a Transform) and a writer (HostCommands → bytes, a Readable to pipe into the port). The line
// protocol's parser splits lines with @serialport/parser-readline. Time comes from the caller's `now`.
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { ReadlineParser } from '@serialport/parser-readline';
import type { BoardEvent } from './events.ts';
import { LineDecoder } from './line/decoder.ts';
import { MAX_LINE } from './line/frame.ts';
import type { Decoder, HostCommand, ProtocolOptions } from './types.ts';

export interface StreamTiming {
  /** Receive time in ms for the events of a chunk (the daemon's clock; tests pass a fake one). */
  now: () => number;
}

/** Any decoder as a Transform: bytes in, BoardEvent objects out. */
export class DecoderStream extends Transform {
  constructor(
    private readonly decoder: Decoder,
    private readonly timing: StreamTiming,
  ) {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    for (const event of this.decoder.push(chunk, this.timing.now())) this.push(event);
    done();
  }

  override _flush(done: TransformCallback): void {
    for (const event of this.decoder.flush(this.timing.now())) this.push(event);
    done();
  }
}

/**
 * The line protocol's host parser: a ReadlineParser (bytes → lines) whose lines are decoded into
 * BoardEvents before they leave the stream. A line cut short by the end of the stream is reported as a
 * `truncated` fault; a line that grows past the limit without LF is dropped as `line-too-long`.
 */
export class LineParser extends ReadlineParser {
  private readonly decoder: LineDecoder;

  constructor(
    options: ProtocolOptions,
    private readonly timing: StreamTiming,
  ) {
    super({ delimiter: '\n', encoding: undefined, readableObjectMode: true });
    this.decoder = new LineDecoder(options);
  }

  /** ReadlineParser hands each line to push(): decode it here. */
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (!Buffer.isBuffer(chunk)) return super.push(chunk, encoding);
    let ok = true;
    for (const event of this.decoder.pushLine(chunk.toString('latin1'), this.timing.now()))
      ok = super.push(event);
    return ok;
  }

  override _transform(chunk: Buffer, enc: BufferEncoding, done: TransformCallback): void {
    super._transform(chunk, enc, () => {
      if (this.buffer.length > MAX_LINE + 1) {
        this.buffer = Buffer.alloc(0);
        super.push(lineFault(this.timing.now(), 'line-too-long', `line longer than ${MAX_LINE} characters`));
      }
      done();
    });
  }

  override _flush(done: TransformCallback): void {
    if (this.buffer.length > 0)
      super.push(lineFault(this.timing.now(), 'truncated', 'stream ended inside a line'));
    this.buffer = Buffer.alloc(0);
    done();
  }
}

const lineFault = (t: number, code: string, message: string): BoardEvent => ({
  t,
  type: 'fault',
  code,
  message,
  resync: true,
});

/** Host commands → bytes for the port: `writer.pipe(port)`, then `writer.send(cmd)`. */
export class CommandWriter extends Readable {
  constructor(private readonly encode: (cmd: HostCommand) => Uint8Array) {
    super();
  }

  /** False when the protocol cannot say this command (nothing is sent). */
  send(cmd: HostCommand): boolean {
    const bytes = this.encode(cmd);
    if (bytes.length === 0) return false;
    this.push(Buffer.from(bytes));
    return true;
  }

  override _read(): void {}
}
