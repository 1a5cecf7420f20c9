// `damlink capture --board SOURCE --out FILE [--seconds N]`: what a board says, kept for a bug report.
// The bytes go to FILE as `{"t": ms, "hex": "…"}` lines (what `damlink decode` reads); the commands
// damlink sent go in between as `{"t": ms, "dir": "out", "hex": "…"}` lines (which decode skips).
import { createWriteStream } from 'node:fs';
import { type Command, Option } from 'commander';
import { type HostCommand, PROTOCOLS, type ProtocolName } from '../../firmware-protocol/index.ts';
import { parseSource } from '../config/source.ts';
import { boardTransport, defaultProtocol } from '../transport/index.ts';
import { FIELD_MAP_HELP, readBoardDescription } from './board-description.ts';
import { positiveNumber } from './options.ts';
import { usageError, workFailed } from '../failure.ts';

interface CaptureFlags {
  board: string;
  out: string;
  seconds?: number;
  protocol?: ProtocolName;
  fieldMap?: string;
}

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes)
    .toString('hex')
    .replace(/(..)(?!$)/g, '$1 ');

async function capture(flags: CaptureFlags): Promise<void> {
  const source = parseSource(flags.board);
  if (!source.ok) throw usageError(`--board: ${source.error.message}`);
  const protocol = flags.protocol ?? defaultProtocol(source.value);
  const options = readBoardDescription(flags.fieldMap);
  const { driver, open } = boardTransport(source.value, { name: protocol }, options);
  const file = createWriteStream(flags.out);
  const opened = new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve());
    file.once('error', reject);
  });
  await opened.catch((e: Error) => {
    throw workFailed(`cannot write ${flags.out}: ${e.message}`);
  });
  const started = Date.now();
  const stamp = () => Date.now() - started;
  const counts = { chunks: 0, bytes: 0, commands: 0 };
  let closedBecause: string | undefined;
  let finish!: () => void;
  const over = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let link: Awaited<ReturnType<typeof open>>;
  try {
    link = await open({
      onData: (bytes) => {
        counts.chunks++;
        counts.bytes += bytes.length;
        file.write(`${JSON.stringify({ t: stamp(), hex: hex(bytes) })}\n`);
      },
      onClose: (reason) => {
        closedBecause = reason;
        finish();
      },
    });
  } catch (e) {
    file.close();
    throw workFailed(`cannot open ${source.value.text}: ${(e as Error).message}`);
  }
  const send = (command: HostCommand) => {
    const bytes = driver.encode(command);
    if (bytes.length === 0) return;
    counts.commands++;
    file.write(`${JSON.stringify({ t: stamp(), dir: 'out', hex: hex(bytes) })}\n`);
    link.write(bytes);
  };
  // What the daemon asks on every connection, then its keep-alive.
  for (const command of driver.startCommands) send(command);
  if (driver.canIdentify) send({ type: 'identify' });
  send({ type: 'snapshot' });
  // A board's own record of the game (DGT: EE_MOVES) belongs in a report: what the board kept.
  if (driver.memory === 'tail') send({ type: 'history', after: 0 });
  const ping = setInterval(() => driver.canPing && send({ type: 'ping' }), 1000);
  const timer = flags.seconds ? setTimeout(finish, flags.seconds * 1000) : undefined;
  process.once('SIGINT', finish);
  process.once('SIGTERM', finish);
  await over;
  clearInterval(ping);
  clearTimeout(timer);
  process.off('SIGINT', finish);
  process.off('SIGTERM', finish);
  // The answer to the last command is part of the capture.
  await new Promise((resolve) => setTimeout(resolve, 300));
  link.close();
  await new Promise<void>((resolve) => file.end(resolve));
  const seconds = (stamp() / 1000).toFixed(1);
  console.error(
    `damlink: ${counts.bytes} bytes in ${counts.chunks} reads from the board, ${counts.commands} commands sent, ${seconds} s: ${flags.out}`,
  );
  if (closedBecause) console.error(`damlink: the link closed: ${closedBecause}`);
  if (counts.bytes === 0)
    console.error('damlink: the board said nothing: is it on, and is this its protocol?');
}

export function registerCapture(program: Command): void {
  program
    .command('capture')
    .description(
      'Record what a board sends (and the commands sent to it) for a bug report; `decode` reads it',
    )
    .requiredOption(
      '-b, --board <source>',
      'the board: serial:/dev/… or a path, hid:VID:PID[:serial], tcp://host:port',
    )
    .requiredOption(
      '-o, --out <file>',
      'the capture: {"t","hex"} JSON lines, commands as {"t","dir":"out","hex"}',
    )
    .option('--seconds <n>', 'stop after N seconds (default: Ctrl-C)', positiveNumber('--seconds'))
    .addOption(
      new Option('--protocol <name>', 'board protocol (default: hid for hid:, else line)').choices([
        ...PROTOCOLS,
      ]),
    )
    .option('--field-map <file>', FIELD_MAP_HELP)
    .addHelpText(
      'after',
      '\nExample:\n  damlink capture --board /dev/ttyUSB0 --protocol dgt --seconds 60 --out board.jsonl\n  damlink decode --protocol dgt board.jsonl\n',
    )
    .action(capture);
}
