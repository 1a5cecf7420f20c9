// A scrambled DGT board (random field order, other piece codes) behind a real socat PTY: `damlink
// calibrate --json` learns it while the simulator's person answers the prompts; then the daemon,
// with the profile in its data directory, follows a game on that board: the PDN equals the truth.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { Prompt, ProtocolOptions } from '../../firmware-protocol/index.ts';
import { answerPrompt, startSimulation } from '../../simulator/index.ts';
import { randomFields50 } from '../firmware-protocol/fixtures/calibration-boards.ts';
import { spawnDamlink } from '../daemon/commands/fixtures/run-cli.ts';
import { cleanUp, idleDgtBoard, onCleanup, servedGames, startDaemon, tempDir } from './fixtures/helpers.ts';

const SPEED = 5;
const BOARD: ProtocolOptions = {
  fieldMap: { fields50: randomFields50(31) },
  pieceCodes: { w: 4, b: 1, W: 10, B: 7 },
};

afterEach(cleanUp);

/** Runs `damlink calibrate` against a PTY board whose person follows every prompt it prints. */
async function calibrate(
  dataDir: string,
): Promise<{ code: number | null; lines: { type: string }[]; stderr: string }> {
  const board = await idleDgtBoard(BOARD);
  const run = spawnDamlink([
    'calibrate',
    '--board',
    `serial:${board.address}`,
    '--protocol',
    'dgt',
    '--json',
    '--data-dir',
    dataDir,
  ]);
  const lines: { type: string; prompt?: Prompt }[] = [];
  for await (const line of createInterface({ input: run.child.stdout })) {
    const message = JSON.parse(line);
    lines.push(message);
    if (message.type === 'prompt') await answerPrompt(board.board, message.prompt, { speed: 10 });
  }
  return { code: await run.exited, lines, stderr: run.stderr() };
}

describe('calibrate a scrambled board over a PTY, then play on it', () => {
  it('the learned profile makes the daemon read the game right: PDN equals the truth', async () => {
    const dataDir = tempDir('calibrate');
    const session = await calibrate(dataDir);
    expect(session.code, session.stderr).toBe(0);
    const done = session.lines.find((l) => l.type === 'done') as unknown as {
      profile: { fieldMap: number[]; pieces: unknown; serial: string };
    };
    expect(done.profile.fieldMap).toEqual(BOARD.fieldMap?.fields50);
    expect(done.profile.pieces).toEqual(BOARD.pieceCodes);
    expect(session.lines.at(-1)).toMatchObject({
      type: 'saved',
      file: join(dataDir, 'profiles', `${done.profile.serial}.json`),
    });

    const sim = await startSimulation({
      boards: 1,
      protocol: 'dgt',
      transport: 'pty',
      protocolOptions: BOARD,
      speed: SPEED,
      seed: 5,
      game: { noise: 'none', maxPlies: 16, thinkMs: 1500 },
    });
    onCleanup(() => sim.stop());
    expect(sim.boards[0].serial).toBe(done.profile.serial);
    const config = join(dataDir, 'damlink.yaml');
    writeFileSync(config, 'protocol:\n  name: dgt\n');
    const daemon = await startDaemon([`serial:${sim.boards[0].address}`], dataDir, [
      '--config',
      config,
      '--time-scale',
      String(SPEED),
    ]);
    onCleanup(() => daemon.stop());
    await sim.done;
    const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
    expect(truth[0].length).toBeGreaterThanOrEqual(12);
    expect(
      await servedGames(
        daemon.url,
        truth,
        15_000,
        'games.pdn to match the game on the calibrated board',
        daemon.stderr,
      ),
    ).toEqual(truth);
  }, 120_000);
});
