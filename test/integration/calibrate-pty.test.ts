// Calibration sessions over a real socat PTY (serialport on both ends) against simulated DGT boards
// scrambled in several ways, answered by the simulator's person; and the sessions that must fail.
import { afterEach, describe, expect, it } from 'vitest';
import type { ProtocolOptions, WizardOutput } from '../../firmware-protocol/index.ts';
import { type SessionOutput, startCalibration } from '../../daemon/calibration/session.ts';
import { parseSource } from '../../daemon/config/source.ts';
import { boardTransport } from '../../daemon/transport/index.ts';
import { answerPrompt } from '../../simulator/index.ts';
import {
  mirroredFields100,
  randomFields50,
  rotatedFields50,
} from '../firmware-protocol/fixtures/calibration-boards.ts';
import { cleanUp, idleDgtBoard } from './fixtures/helpers.ts';

afterEach(cleanUp);

type Last = WizardOutput & { type: 'done' | 'failed' };

/** One session against `source`; `answer` is the person (none: nobody answers). */
async function session(
  source: string,
  host: ProtocolOptions,
  answer?: (out: SessionOutput) => Promise<void>,
  timing: { answerMs?: number } = {},
): Promise<{ last: Last; outputs: SessionOutput[] }> {
  const parsed = parseSource(source);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const outputs: SessionOutput[] = [];
  let chain = Promise.resolve();
  const calibration = startCalibration({
    transport: boardTransport(parsed.value, { name: 'dgt' }, host),
    protocol: 'dgt',
    options: host,
    fallbackSerial: source,
    retryMs: 200,
    ...timing,
    onOutput: (out) => {
      outputs.push(out);
      if (answer) chain = chain.then(() => answer(out));
    },
  });
  return { last: await calibration.finished, outputs };
}

async function calibrateSimulated(board: ProtocolOptions, host: ProtocolOptions = {}) {
  const b = await idleDgtBoard(board);
  return session(`serial:${b.address}`, host, async (out) => {
    if (out.type === 'prompt') await answerPrompt(b.board, out.prompt, { speed: 30 });
  });
}

describe('calibration over a PTY', () => {
  const boards: [string, ProtocolOptions, ProtocolOptions?][] = [
    ['a random field order', { fieldMap: { fields50: randomFields50(3) } }],
    [
      'a board turned 180° with swapped piece codes',
      { fieldMap: { fields50: rotatedFields50() }, pieceCodes: { w: 4, b: 1, W: 10, B: 7 } },
    ],
    [
      'a 100-field scan read mirrored',
      { scan: '100', fieldMap: { fields100: mirroredFields100() } },
      { scan: '100' },
    ],
    [
      'an occupancy-only board',
      { fieldMap: { fields50: randomFields50(4) }, senses: 'occupancy', occupiedCode: 3 },
    ],
  ];
  for (const [name, board, host] of boards) {
    it(`${name}: the profile holds the board's field map, codes and serial`, async () => {
      const { last, outputs } = await calibrateSimulated(board, host);
      expect(last.type, JSON.stringify(last)).toBe('done');
      if (last.type !== 'done') return;
      const map = board.fieldMap?.fields50 ?? board.fieldMap?.fields100;
      expect(last.profile.fieldMap).toEqual(map);
      expect(last.profile.serial).toBe('00001');
      expect(outputs).toContainEqual(expect.objectContaining({ type: 'board', serial: '00001' }));
      if (board.senses === 'occupancy')
        expect(last.profile).toMatchObject({ senses: 'occupancy', occupied: 3 });
      else expect(last.profile.pieces).toEqual(board.pieceCodes ?? { w: 1, b: 4, W: 7, B: 10 });
    }, 60_000);
  }

  it('a person who lifts two pieces for one prompt: failed with the squares named, no profile', async () => {
    const b = await idleDgtBoard();
    const { last, outputs } = await session(`serial:${b.address}`, {}, async (out) => {
      if (out.type !== 'prompt') return;
      if (out.prompt.action === 'lift-return' && out.prompt.square === 2) {
        // Both hands at once: 3 is up while 2 is.
        b.board.perform({ t: 0, type: 'lift', square: 3 });
        await answerPrompt(b.board, out.prompt, { speed: 30 });
        b.board.perform({ t: 0, type: 'put', square: 3, piece: 'b' });
      } else await answerPrompt(b.board, out.prompt, { speed: 30 });
    });
    expect(last).toMatchObject({ type: 'failed', code: 'several-squares' });
    expect(last.type === 'failed' && last.message).toMatch(/square 2 alone/);
    expect(outputs.some((o) => o.type === 'done')).toBe(false);
  }, 60_000);

  it('a device that does not exist: failed, cannot open', async () => {
    const { last } = await session('serial:/dev/damlink-no-such-board', {});
    expect(last).toMatchObject({ type: 'failed', code: 'no-answer' });
    expect(last.type === 'failed' && last.message).toMatch(/cannot open/);
  });

  it('a board that never answers: failed after the answer time', async () => {
    const b = await idleDgtBoard();
    // The simulator's board end stays open but the board is stopped: nothing answers.
    b.board.stop();
    const { last } = await session(`serial:${b.address}`, {}, undefined, { answerMs: 800 });
    expect(last).toMatchObject({ type: 'failed', code: 'no-answer' });
    expect(last.type === 'failed' && last.message).toMatch(/no picture/);
  });
});
