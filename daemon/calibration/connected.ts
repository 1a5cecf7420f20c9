// Calibrating a board the daemon is connected to (the arbiter console's calibration page): the
// session of `damlink calibrate` over the board's own connection, diverted from its game meanwhile;
// at the end the profile is saved where `damlink run` looks and the connection reads through it.
import { type BoardProfile, type FieldOrder, fieldOrder } from '../../firmware-protocol/index.ts';
import type { LiveBoard } from '../live-board.ts';
import { watched } from '../../src/game/board-time.ts';
import { defaultProtocol } from '../transport/index.ts';
import type { ProfileStore } from './profiles.ts';
import { type CalibrationSession, type SessionOutput, startCalibration } from './session.ts';

/** The profile written: the last output of a calibration that succeeded. */
export interface SavedOutput {
  type: 'saved';
  file: string;
  serial: string;
  fieldOrder: FieldOrder;
}

export const savedOutput = (file: string, profile: BoardProfile): SavedOutput => ({
  type: 'saved',
  file,
  serial: profile.serial,
  fieldOrder: fieldOrder(profile),
});

/** What a calibration says, in order; the last is `saved` or `failed`. */
export type CalibrationOutput = SessionOutput | SavedOutput;

export type CalibrationStart =
  | { ok: true; cancel(): void }
  | { ok: false; code: 'busy' | 'failed'; message: string };

export interface CalibrationTiming {
  /** Ask again for a dump this often until one arrives (ms). */
  retryMs?: number;
  /** Give up when the board has sent no picture in this long (ms). */
  answerMs?: number;
}

export class ConnectedCalibrations {
  private readonly running = new Map<number, CalibrationSession>();

  constructor(
    private readonly profiles: ProfileStore | undefined,
    private readonly timing: CalibrationTiming = {},
  ) {}

  start(live: LiveBoard, onOutput: (output: CalibrationOutput) => void): CalibrationStart {
    const { setup } = live;
    const board = setup.board;
    const profiles = this.profiles;
    if (!profiles) return { ok: false, code: 'failed', message: 'this daemon keeps no board profiles' };
    if (this.running.has(board))
      return { ok: false, code: 'busy', message: `board ${board} is being calibrated already` };
    // A profile named in the config wins over the data directory's: one learned here would not be used.
    if (setup.profile)
      return {
        ok: false,
        code: 'failed',
        message: `board ${board} reads its profile from ${setup.profile} (boards[].profile): calibrate it with damlink calibrate --out ${setup.profile}`,
      };
    const connection = live.feeder;
    const recorded = live.game.record.connection;
    if (!connection || !watched(recorded.state))
      return { ok: false, code: 'failed', message: `board ${board} is not connected (${recorded.state})` };
    const protocol = setup.protocol.name === 'auto' ? defaultProtocol(setup.source) : setup.protocol.name;
    const session = startCalibration({
      transport: {
        driver: connection.configuredDriver,
        open: async (handlers) => {
          const link = connection.divert(handlers);
          if (!link) throw new Error(`board ${board} is not connected`);
          return link;
        },
      },
      protocol,
      options: setup.options,
      fallbackSerial: recorded.serial ?? setup.source.text,
      ...this.timing,
      onOutput: (output) => {
        if (output.type === 'failed' || output.type === 'done') {
          this.running.delete(board);
          live.calibrating = false;
        }
        onOutput(output);
        if (output.type !== 'done') return;
        let file: string;
        try {
          file = profiles.save(output.profile);
        } catch (e) {
          onOutput({
            type: 'failed',
            code: 'not-saved',
            message: `cannot write the profile: ${(e as Error).message}`,
          });
          return;
        }
        connection.refreshProfile();
        onOutput(savedOutput(file, output.profile));
      },
    });
    this.running.set(board, session);
    live.calibrating = true;
    return { ok: true, cancel: () => session.stop('cancelled from the console') };
  }

  /** Ends every calibration (the round closes, the daemon stops): the boards' games read on. */
  stopAll(reason: string): void {
    for (const session of [...this.running.values()]) session.stop(reason);
  }
}
