// One calibration over a real link: opens the board, puts it into event mode, learns its serial
// number, feeds what it says to the wizard and asks for dumps when the wizard needs them.
import {
  type CalibrationFailure,
  CalibrationWizard,
  createRawReader,
  type ProtocolName,
  type ProtocolOptions,
  type WizardOutput,
} from '../../firmware-protocol/index.ts';
import type { BoardTransport } from '../transport/index.ts';
import type { Link } from '../transport/link.ts';

export type SessionOutput =
  | WizardOutput
  | { type: 'board'; serial: string; firmware?: string; senses: string };

export interface CalibrationSessionOptions {
  transport: BoardTransport;
  protocol: ProtocolName;
  options: ProtocolOptions;
  /** Serial when the protocol cannot tell it (the source's text). */
  fallbackSerial: string;
  /** Every output, the last (`done` or `failed`) included, once each. */
  onOutput(output: SessionOutput): void;
  /** Ask again for a dump this often until one arrives (default 1000 ms). */
  retryMs?: number;
  /** Give up when the board has sent no picture in this long (default 15000 ms). */
  answerMs?: number;
  now?: () => number;
}

export interface CalibrationSession {
  /** Resolves with the last output: `done` (with the profile) or `failed`. */
  finished: Promise<WizardOutput & { type: 'done' | 'failed' }>;
  /** Ends the session: `failed` with `code` (default `cancelled`) and `reason` as its message. */
  stop(reason: string, code?: CalibrationFailure): void;
}

export function startCalibration(o: CalibrationSessionOptions): CalibrationSession {
  const now = o.now ?? Date.now;
  const wizard = new CalibrationWizard({ protocol: o.protocol });
  const reader = createRawReader(o.protocol, o.options);
  const decoder = o.transport.driver.createDecoder();
  let link: Link | undefined;
  let settle!: (last: WizardOutput & { type: 'done' | 'failed' }) => void;
  const finished = new Promise<WizardOutput & { type: 'done' | 'failed' }>((resolve) => {
    settle = resolve;
  });
  let over = false;
  let wantPicture = false;
  let askedAt = 0;
  const startedAt = now();
  let timer: NodeJS.Timeout | undefined;

  const send = (...commands: Parameters<BoardTransport['driver']['encode']>[0][]) => {
    for (const c of commands) link?.write(o.transport.driver.encode(c));
  };
  const end = (last: WizardOutput & { type: 'done' | 'failed' }) => {
    if (over) return;
    over = true;
    clearInterval(timer);
    link?.close();
    o.onOutput(last);
    settle(last);
  };
  const show = (outputs: WizardOutput[]) => {
    for (const out of outputs) {
      if (out.type === 'done' || out.type === 'failed') return end(out);
      o.onOutput(out);
      if (out.type === 'need-picture') {
        wantPicture = true;
        askedAt = now();
        send({ type: 'snapshot' });
      }
    }
  };
  const receive = (bytes: Uint8Array) => {
    const t = now() - startedAt;
    for (const e of decoder.push(bytes, t)) {
      if (e.type !== 'hello') continue;
      wizard.setSerial(e.serial);
      o.onOutput({ type: 'board', serial: e.serial, firmware: e.firmware, senses: e.senses });
    }
    for (const reading of reader.push(bytes, t)) {
      if (reading.kind === 'picture') wantPicture = false;
      show(wizard.push(reading));
      if (over) return;
    }
  };

  void o.transport
    .open({
      onData: receive,
      onClose: (reason) => end({ type: 'failed', code: 'no-answer', message: `the link closed: ${reason}` }),
    })
    .then(
      (opened) => {
        if (over) return opened.close();
        link = opened;
        send(...o.transport.driver.startCommands);
        if (opened.hello) {
          wizard.setSerial(opened.hello.serial);
          o.onOutput({
            type: 'board',
            serial: opened.hello.serial,
            firmware: opened.hello.firmware,
            senses: opened.hello.senses,
          });
        } else if (o.transport.driver.canIdentify) send({ type: 'identify' });
        else wizard.setSerial(o.fallbackSerial);
        show(wizard.begin());
        timer = setInterval(() => {
          if (!wantPicture) return;
          if (now() - askedAt >= (o.answerMs ?? 15_000))
            return end({
              type: 'failed',
              code: 'no-answer',
              message: 'the board sent no picture of itself: is it on, and is it this protocol?',
            });
          send({ type: 'snapshot' });
          if (o.transport.driver.canIdentify) send({ type: 'identify' });
        }, o.retryMs ?? 1000);
      },
      (e: Error) =>
        end({ type: 'failed', code: 'no-answer', message: `cannot open the board: ${e.message}` }),
    );

  return {
    finished,
    stop: (reason, code = 'cancelled') => end({ type: 'failed', code, message: reason }),
  };
}
