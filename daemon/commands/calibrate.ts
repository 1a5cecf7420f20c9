// `damlink calibrate --board SOURCE`: guides a person through a short session on the board and
// writes what it learned (field order, piece codes, light squares) as the board's profile.
// `--json`: prompts and progress as JSON lines, so a script (or the simulator) can answer them.
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import {
  type BoardProfile,
  fieldOrder,
  PROTOCOLS,
  type ProtocolName,
} from '../../firmware-protocol/index.ts';
import { savedOutput } from '../calibration/connected.ts';
import { profilePath, saveProfile } from '../calibration/profiles.ts';
import { type SessionOutput, startCalibration } from '../calibration/session.ts';
import { loadConfig } from '../config/index.ts';
import { parseSource } from '../config/source.ts';
import { boardTransport, defaultProtocol } from '../transport/index.ts';
import { FIELD_MAP_HELP, readBoardDescription } from './board-description.ts';
import { usageError, workFailed } from '../failure.ts';

interface CalibrateFlags {
  board: string;
  protocol?: ProtocolName;
  fieldMap?: string;
  out?: string;
  dataDir?: string;
  config?: string;
  json?: boolean;
}

const hex = (n: number) => `0x${n.toString(16).padStart(2, '0')}`;

/** One line about what was learned. */
export function describeProfile(p: BoardProfile): string {
  const light = p.lightFields.length ? `, ${p.lightFields.length} light fields` : '';
  const codes = p.pieces
    ? `pieces w ${hex(p.pieces.w)} b ${hex(p.pieces.b)} W ${hex(p.pieces.W)} B ${hex(p.pieces.B)}, kings ${p.kings}`
    : `occupancy only (${hex(p.occupied ?? 0)})`;
  return `${p.fields} fields${light}, field order ${fieldOrder(p)}; ${codes}`;
}

function textOf(out: SessionOutput): string | undefined {
  switch (out.type) {
    case 'prompt':
      return `[${out.prompt.n}/${out.prompt.of}] ${out.prompt.text}`;
    case 'board':
      return `board ${out.serial}${out.firmware ? ` (firmware ${out.firmware})` : ''}`;
    default:
      return undefined;
  }
}

/** Where the profile goes: `--out`, else the data directory's file for the board's serial number. */
function profileTarget(flags: CalibrateFlags): (serial: string) => string {
  const out = flags.out;
  if (out) return () => resolve(out);
  const loaded = loadConfig({ file: flags.config, env: process.env, flags: { dataDir: flags.dataDir } });
  if (!loaded.ok) throw usageError(...loaded.error);
  const dataDir = loaded.value.dataDir;
  return (serial) => resolve(profilePath(dataDir, serial));
}

async function calibrate(flags: CalibrateFlags): Promise<void> {
  const source = parseSource(flags.board);
  if (!source.ok) throw usageError(`--board: ${source.error.message}`);
  const options = readBoardDescription(flags.fieldMap);
  const protocol = flags.protocol ?? defaultProtocol(source.value);
  const target = profileTarget(flags);
  const transport = boardTransport(source.value, { name: protocol }, options);
  const print = (out: SessionOutput): void => {
    if (flags.json) console.log(JSON.stringify(out));
    else {
      const text = textOf(out);
      if (text) console.log(text);
    }
  };
  const session = startCalibration({
    transport,
    protocol,
    options,
    fallbackSerial: source.value.text,
    onOutput: print,
  });
  const interrupt = () => session.stop('interrupted');
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const last = await session.finished;
  process.off('SIGINT', interrupt);
  process.off('SIGTERM', interrupt);
  if (last.type === 'failed') throw workFailed(`calibration failed: ${last.message}; no profile written`);
  const file = target(last.profile.serial);
  try {
    saveProfile(file, last.profile);
  } catch (e) {
    throw workFailed(`cannot write ${file}: ${(e as Error).message}`);
  }
  if (flags.json) console.log(JSON.stringify(savedOutput(file, last.profile)));
  else
    console.log(
      `board ${last.profile.serial} calibrated: ${describeProfile(last.profile)}\nprofile written to ${file}`,
    );
}

export function registerCalibrate(program: Command): void {
  program
    .command('calibrate')
    .description(
      "Learn a board's field order, piece codes and light squares in a guided session; writes its profile",
    )
    .requiredOption(
      '-b, --board <source>',
      'the board: serial:/dev/… or a path, hid:VID:PID[:serial], tcp://host:port',
    )
    .addOption(
      new Option('--protocol <name>', 'board protocol (default: hid for hid:, else line)').choices([
        ...PROTOCOLS,
      ]),
    )
    .option('--field-map <file>', `${FIELD_MAP_HELP} (what is known before calibrating)`)
    .option('-o, --out <file>', 'write the profile here (default: <data dir>/profiles/<serial>.json)')
    .option('-d, --data-dir <dir>', 'data directory whose profiles `damlink run` applies (default ./data)')
    .option('-c, --config <file>', 'config file to take the data directory from')
    .option(
      '--json',
      'prompts and progress as JSON lines ({"type":"prompt"|"learned"|"done"|"failed"|"saved",…})',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  damlink calibrate --board /dev/ttyUSB0 --protocol dgt\n  damlink calibrate --board tcp://127.0.0.1:7001 --json --out board.json\n',
    )
    .action(calibrate);
}
