// Calibrating a board the daemon is connected to, through the hub the servers call (the round
// switch delegating to the round's controller): a scrambled DGT board over TCP whose person follows
// the prompts, the game paused meanwhile and resumed after, reading through the profile learned.
import { existsSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CalibrationOutput } from '../../../daemon/calibration/connected.ts';
import { profileDir, profilePath, readProfileFile } from '../../../daemon/calibration/profiles.ts';
import { startPosition } from '../../../firmware-protocol/index.ts';
import { answerPrompt } from '../../../simulator/index.ts';
import { until } from '../fixtures/controller-timing.ts';
import {
  type CalibratingDaemon,
  calibratingDaemon,
  personAt,
  SCRAMBLED,
} from './fixtures/calibrating-daemon.ts';

let daemon: CalibratingDaemon | undefined;
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
});

/** The board's lifts and puts the journal holds for its game. */
const handsJournaled = (d: CalibratingDaemon) =>
  (d.hub.sensorEvents(1, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, 100_000) ?? []).filter(
    (e) => e.type === 'lift' || e.type === 'put',
  );

const last = <T extends CalibrationOutput['type']>(outputs: CalibrationOutput[], type: T) =>
  outputs.findLast((o) => o.type === type) as Extract<CalibrationOutput, { type: T }> | undefined;

async function connected(): Promise<CalibratingDaemon> {
  daemon = await calibratingDaemon();
  const d = daemon;
  await until(() => d.hub.boards()[0]?.state === 'active', 10_000);
  return d;
}

describe('calibrating a connected board through the hub', () => {
  it('learns a scrambled board, saves its profile where `damlink run` looks, and the game reads through it after', async () => {
    const d = await connected();
    const answer = personAt(d.board);
    const outputs: CalibrationOutput[] = [];
    const started = d.hub.calibrate(1, (o) => {
      outputs.push(o);
      if (o.type === 'prompt') void answer(o.prompt);
    });
    expect(started.ok).toBe(true);
    expect(d.hub.calibrate(1, () => {})).toMatchObject({ ok: false, code: 'busy' });

    // Half-way: dozens of lifts and puts made, none reached the game.
    await until(() => (last(outputs, 'learned')?.n ?? 0) >= 25, 30_000);
    expect(handsJournaled(d)).toEqual([]);
    expect(d.hub.boards()[0].calibrating).toBe(true);
    expect(d.hub.snapshot(1)!.moves).toEqual([]);
    expect(d.hub.snapshot(1)!.alerts).toEqual([]);

    await until(() => outputs.some((o) => o.type === 'saved' || o.type === 'failed'), 60_000);
    const done = last(outputs, 'done');
    expect(done?.profile.fieldMap).toEqual(SCRAMBLED.fieldMap?.fields50);
    expect(done?.profile.pieces).toEqual(SCRAMBLED.pieceCodes);
    const serial = d.board.serial;
    const saved = outputs.at(-1);
    expect(saved).toEqual({
      type: 'saved',
      file: profilePath(d.dataDir, serial),
      serial,
      fieldOrder: 'permutation',
    });
    const onDisk = readProfileFile(profilePath(d.dataDir, serial));
    expect(onDisk.ok && onDisk.value.fieldMap).toEqual(SCRAMBLED.fieldMap?.fields50);
    expect(handsJournaled(d)).toEqual([]);
    expect(d.hub.boards()[0].calibrating).toBeUndefined();

    // Resumed, through the profile: the start position read right, then a move played is recorded.
    const dumps = () =>
      (d.hub.sensorEvents(1, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY, 100_000) ?? []).flatMap(
        (e) => (e.type === 'snapshot' ? [e.board] : []),
      );
    await until(() => dumps().at(-1) === startPosition(10), 10_000);
    d.board.board.perform({ t: 0, type: 'lift', square: 32 });
    d.board.board.perform({ t: 0, type: 'put', square: 28, piece: 'w' });
    await until(() => d.hub.snapshot(1)!.moves.length === 1, 10_000);
    expect(d.hub.snapshot(1)!.moves[0].pdn).toBe('32-28');
    expect(handsJournaled(d).map((e) => e.type)).toEqual(['lift', 'put']);
  }, 90_000);

  it('a person who does not follow the prompts: a clear message, no profile, the game reads on', async () => {
    const d = await connected();
    const outputs: CalibrationOutput[] = [];
    d.hub.calibrate(1, (o) => {
      outputs.push(o);
      if (o.type !== 'prompt') return;
      if (o.prompt.action === 'lift-return' && o.prompt.square === 2) {
        // Both hands at once: 3 is up while 2 is.
        d.board.board.perform({ t: 0, type: 'lift', square: 3 });
        void answerPrompt(d.board.board, o.prompt, { speed: 10 });
      } else void answerPrompt(d.board.board, o.prompt, { speed: 10 });
    });
    await until(() => outputs.some((o) => o.type === 'failed'), 30_000);
    const failed = last(outputs, 'failed');
    expect(failed).toMatchObject({ code: 'several-squares' });
    expect(failed?.message).toMatch(/prompt 3 asked for square 2 alone/);
    expect(outputs.some((o) => o.type === 'done' || o.type === 'saved')).toBe(false);
    expect(existsSync(profileDir(d.dataDir)) ? readdirSync(profileDir(d.dataDir)) : []).toEqual([]);

    // The board is the game's again: a hand on it is journaled.
    d.board.board.perform({ t: 0, type: 'put', square: 3, piece: 'b' });
    await until(() => handsJournaled(d).length > 0, 10_000);

    // And it can be calibrated again, then cancelled.
    const again: CalibrationOutput[] = [];
    const restarted = d.hub.calibrate(1, (o) => again.push(o));
    expect(restarted.ok).toBe(true);
    await until(() => again.some((o) => o.type === 'prompt'), 10_000);
    if (restarted.ok) restarted.cancel();
    expect(again.at(-1)).toMatchObject({ type: 'failed', code: 'cancelled' });
    expect(d.hub.calibrate(1, () => {}).ok).toBe(true);
  }, 60_000);

  it('an unknown board, or one not connected, is refused with the reason', async () => {
    daemon = await calibratingDaemon();
    const d = daemon;
    expect(d.hub.calibrate(9, () => {})).toMatchObject({ ok: false, code: 'failed', message: /no board 9/ });
    await until(() => d.hub.boards()[0]?.state === 'active', 10_000);
    await d.board.board.stop();
    await until(() => d.hub.boards()[0]?.state === 'lost', 10_000);
    expect(d.hub.calibrate(1, () => {})).toMatchObject({
      ok: false,
      code: 'failed',
      message: /not connected/,
    });
  }, 30_000);
});
