// Boards scrambled in the ways real boards may differ from the defaults, and a person who answers
// the calibration's prompts on one, all in one process: bytes go through the real DGT encoder and
// the calibration's raw reader.
import {
  type BoardEvent,
  CalibrationWizard,
  createBoardEncoder,
  createRawReader,
  darkScanFieldMap,
  fullScanFieldMap,
  type ProtocolName,
  type ProtocolOptions,
  type WizardOutput,
} from '../../firmware-protocol/index.ts';
import { type FollowOptions, followPrompt } from '../../simulator/calibration.ts';
import { createRng } from '../../simulator/prng.ts';

export const randomFields50 = (seed: number): number[] => createRng(seed).shuffle(darkScanFieldMap(10));
export const rotatedFields50 = (): number[] => darkScanFieldMap(10).reverse();
/** Each row of five read from the other end. */
export const mirroredFields50 = (): number[] =>
  darkScanFieldMap(10).map((_, i) => Math.floor(i / 5) * 5 + (4 - (i % 5)) + 1);
/** A 100-field scan with every row read right to left: dark squares on the other fields. */
export const mirroredFields100 = (): number[] => {
  const normal = fullScanFieldMap(10);
  return normal.map((_, i) => normal[Math.floor(i / 10) * 10 + (9 - (i % 10))]);
};

/** How the person strays from the prompts (tests of a board that does not follow). */
export type Stray = (prompt: WizardOutput & { type: 'prompt' }, events: BoardEvent[]) => BoardEvent[];

export interface Session {
  outputs: WizardOutput[];
  last: WizardOutput | undefined;
}

/**
 * Runs a whole calibration: the wizard's prompts answered by `followPrompt` on a board that starts
 * empty, its events encoded as the board would send them. `dumpOptions` makes the board's dumps
 * number the fields another way than its updates.
 */
export function calibrateBoard(
  protocol: ProtocolName,
  options: ProtocolOptions,
  follow: FollowOptions = {},
  stray?: Stray,
  dumpOptions?: ProtocolOptions,
  /** What the board's firmware makes of an event before sending it (a line board's own numbering). */
  reportAs: (e: BoardEvent) => BoardEvent = (e) => e,
): Session {
  const encoder = createBoardEncoder(protocol, options);
  const dumper = dumpOptions ? createBoardEncoder(protocol, dumpOptions) : encoder;
  const reader = createRawReader(protocol, options);
  const wizard = new CalibrationWizard({ protocol, serial: 'T-0001' });
  const squares = options.size === 8 ? 32 : 50;
  let board = '.'.repeat(squares);
  let t = 0;
  const outputs: WizardOutput[] = [];
  const pending: WizardOutput[] = [...wizard.begin()];
  const feed = (bytes: Uint8Array) => {
    for (const reading of reader.push(bytes, t)) pending.push(...wizard.push(reading));
  };
  while (pending.length > 0) {
    const out = pending.shift()!;
    outputs.push(out);
    if (out.type === 'need-picture') {
      const dumpNow = out === outputs[0] ? encoder : dumper;
      feed(dumpNow.encode(reportAs({ t, type: 'snapshot', board })));
    } else if (out.type === 'prompt') {
      const planned = followPrompt(out.prompt, board, t, follow);
      for (const e of stray ? stray(out, planned) : planned) {
        t = e.t;
        if (e.type === 'lift') board = replace(board, e.square, '.');
        if (e.type === 'put') board = replace(board, e.square, e.piece ?? 'o');
        feed(encoder.encode(reportAs(e)));
      }
      t += 500;
    }
  }
  return { outputs, last: outputs.at(-1) };
}

const replace = (board: string, square: number, c: string) =>
  board.slice(0, square - 1) + c + board.slice(square);
