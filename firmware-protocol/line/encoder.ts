// Board side of the line protocol (what a firmware — or the simulator — sends and understands),
// and the host's command lines.
import type { BoardEvent } from '../events.ts';
import type { BoardEncoder, CommandParser, HostCommand } from '../types.ts';
import { frameLine, LineSplitter, MAX_LINE, textToBytes, unframeLine } from './frame.ts';
import { boardLineArgs, hostLineBody, parseHostLine } from './messages.ts';

const EMPTY = new Uint8Array(0);

/** Board → host lines with a sequence number that wraps 255 → 0; `hello` starts again at 0. */
export class LineBoardEncoder implements BoardEncoder {
  readonly protocol = 'line';
  private seq = 0;

  encode(event: BoardEvent): Uint8Array {
    const line = this.encodeLine(event);
    return line ? textToBytes(line) : EMPTY;
  }

  /** The line (with LF) for an event, or undefined when the protocol has none (daemon ticks). */
  encodeLine(event: BoardEvent): string | undefined {
    const msg = boardLineArgs(event);
    if (!msg) return undefined;
    if (msg.type === 'hello') this.seq = 0;
    const body = [msg.type, String(this.seq), ...msg.args].join(' ');
    this.seq = (this.seq + 1) % 256;
    return frameLine(body.slice(0, MAX_LINE - 5));
  }
}

/** Host command → line bytes (empty when the line protocol has no such command). */
export function encodeLineCommand(cmd: HostCommand): Uint8Array {
  const body = hostLineBody(cmd);
  return body === undefined ? EMPTY : textToBytes(frameLine(body.slice(0, MAX_LINE - 5)));
}

/** Board side: parses host lines; lines with a bad checksum, bad arguments or an unknown type are dropped. */
export class LineCommandParser implements CommandParser {
  readonly protocol = 'line';
  private readonly splitter = new LineSplitter();

  push(chunk: Uint8Array): HostCommand[] {
    const out: HostCommand[] = [];
    this.splitter.push(chunk, (line) => {
      const framed = line === undefined ? undefined : unframeLine(line);
      const parsed = framed?.ok ? parseHostLine(framed.value) : undefined;
      if (parsed?.ok) out.push(parsed.value);
    });
    return out;
  }
}
