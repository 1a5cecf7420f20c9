// `damlink decode --protocol line|dgt|hid [--field-map FILE] CAPTURE`: decodes a raw capture (bytes as
// the board sent them) and prints the events as JSON lines, decode faults as {"type":"fault",…} lines,
// and (DGT) every other message understood as {"type":"message","message":…} lines.
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import {
  type BoardEvent,
  createDecoder,
  DESCRIPTORS,
  PROTOCOLS,
  type ProtocolName,
} from '../../firmware-protocol/index.ts';
import { FIELD_MAP_HELP, readBoardDescription } from './board-description.ts';
import { wholeNumber } from './options.ts';
import { usageError, workFailed } from '../failure.ts';

interface DecodeOptions {
  protocol: ProtocolName;
  fieldMap?: string;
  reportLength?: number;
}

/**
 * A capture as chunks with receive times: raw bytes (t = 0), or `.jsonl` lines `{"t": ms, "hex": "…"}`;
 * a located message for a bad line.
 */
function readCapture(path: string): { t: number; bytes: Uint8Array }[] | string {
  let raw: Buffer;
  try {
    raw = path === '-' ? readFileSync(0) : readFileSync(path);
  } catch (e) {
    throw usageError(`cannot read ${path}: ${(e as Error).message}`);
  }
  if (!path.endsWith('.jsonl')) return [{ t: 0, bytes: raw }];
  const chunks: { t: number; bytes: Uint8Array }[] = [];
  const lines = raw.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].trim()) continue;
    try {
      const { t, hex, dir } = JSON.parse(lines[i]);
      // What the host sent (`damlink capture` keeps it for the reader): not the board's bytes.
      if (dir === 'out') continue;
      if (typeof t !== 'number' || typeof hex !== 'string' || !/^([0-9a-fA-F]{2}\s*)*$/.test(hex))
        throw new Error('expected {"t": ms, "hex": "…"}');
      chunks.push({ t, bytes: Buffer.from(hex.replace(/\s+/g, ''), 'hex') });
    } catch (e) {
      return `${path}:${i + 1}: ${(e as Error).message}`;
    }
  }
  return chunks;
}

/** HID captures hold whole reports back to back: cut them at the report length. */
function splitReports(chunks: { t: number; bytes: Uint8Array }[], length: number) {
  return chunks.flatMap(({ t, bytes }) =>
    Array.from({ length: Math.ceil(bytes.length / length) }, (_, i) => ({
      t,
      bytes: bytes.subarray(i * length, (i + 1) * length),
    })),
  );
}

export function registerDecode(program: Command): void {
  program
    .command('decode')
    .description('Decode a raw capture from a board and print its events as JSON lines (faults included)')
    .addOption(
      new Option('--protocol <name>', 'board protocol').choices([...PROTOCOLS]).makeOptionMandatory(),
    )
    .option('--field-map <file>', FIELD_MAP_HELP)
    .option(
      '--report-length <n>',
      'hid: bytes per report in the capture (default: what the layout needs)',
      wholeNumber('--report-length', 1),
    )
    .argument('<capture>', 'raw bytes as received (- for stdin), or .jsonl lines {"t": ms, "hex": "…"}')
    .addHelpText(
      'after',
      '\nExamples:\n  damlink decode --protocol dgt board.bin\n  damlink decode --protocol dgt --field-map my-board.json capture.jsonl',
    )
    .action((capture: string, opts: DecodeOptions) => {
      const protocol = opts.protocol;
      const options = readBoardDescription(opts.fieldMap);
      let chunks = readCapture(capture);
      if (typeof chunks === 'string') throw workFailed(chunks);
      const descriptor = DESCRIPTORS[protocol];
      const reportLength = opts.reportLength ?? descriptor.reportLength?.(options);
      if (reportLength !== undefined) chunks = splitReports(chunks, reportLength);
      const decoder = createDecoder(protocol, options);
      // Some boards say more than board events (DGT: serial, version, battery, clock readings, acks).
      const messages = descriptor.messages?.();
      const lines: string[] = [];
      let faults = 0;
      let described = 0;
      const emit = (events: BoardEvent[]) => {
        for (const e of events) {
          if (e.type === 'fault') faults++;
          lines.push(JSON.stringify(e));
        }
      };
      for (const c of chunks) {
        emit(decoder.push(c.bytes, c.t));
        for (const info of messages?.push(c.bytes, c.t) ?? []) {
          described++;
          lines.push(JSON.stringify({ type: 'message', ...info }));
        }
      }
      emit(decoder.flush(chunks.at(-1)?.t ?? 0));
      if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
      const events = lines.length - described;
      console.error(`${events} events, ${faults} faults${messages ? `, ${described} messages` : ''}`);
    });
}
