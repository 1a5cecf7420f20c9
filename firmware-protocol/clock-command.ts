// Setting a board's clock from the host: whether the board takes the command at all, which answer
// of the board acknowledges it, and what to do after each answer (send again, done, give up).
// Pure: the daemon keeps the link and the timers.
import type { BoardEvent, HelloEvent } from './events.ts';
import { DESCRIPTORS, type ProtocolName } from './protocols.ts';
import type { HostCommand } from './types.ts';

export type SetClockCommand = Extract<HostCommand, { type: 'set-clock' }>;

/** What the clock answered to one try: ok, a refusal, nothing within the wait. */
export type ClockAnswer = 'ok' | 'error' | 'none';

/**
 * Why the arbiter must set the clock by hand: the board's protocol has no clock command (HID), the
 * board did not announce a clock that takes one (line `caps=` without `clock`), the clock refused it
 * (DGT error ack: not in mode 23), it never answered, or no link to the board was open.
 */
export type ClockByHandReason = 'no-command' | 'no-capability' | 'refused' | 'no-answer' | 'not-connected';

export type ClockCommandOutcome =
  /** `answers` empty: the board's protocol acknowledges nothing (line), it was sent. */
  | { set: true; answers: ClockAnswer[] }
  /** `replaced`: a newer setting went out before the clock answered this one; it carries the clock. */
  | { set: false; reason: ClockByHandReason | 'replaced'; answers: ClockAnswer[] };

/** How a command goes to a board: sent (`ack`: the clock command whose ack says it was done), or not. */
export type CommandRoute =
  | { send: true; ack?: number }
  | { send: false; reason: Extract<ClockByHandReason, 'no-command' | 'no-capability'> };

/**
 * Whether `command` goes to a board of `protocol` that said `hello` (`encodable`: the protocol has
 * bytes for it). Some commands wait for a capability the hello announced (line boards, PROTOCOL.md
 * 1.9); a clock that acknowledges a command names it in its ack (DGT: SETNRUN and ASCII).
 */
export function commandRoute(
  protocol: ProtocolName,
  command: HostCommand,
  encodable: boolean,
  hello: HelloEvent | undefined,
): CommandRoute {
  if (!encodable) return { send: false, reason: 'no-command' };
  const { commandCapability, clockAck } = DESCRIPTORS[protocol];
  const needs = commandCapability[command.type];
  if (needs !== undefined && !hello?.capabilities?.includes(needs))
    return { send: false, reason: 'no-capability' };
  const ack = clockAck[command.type];
  return ack === undefined ? { send: true } : { send: true, ack };
}

/** A decoded event as the answer to clock command `ack`: the ok ack, the refusal, or neither. */
export function clockAnswerIn(event: BoardEvent, ack: number): Exclude<ClockAnswer, 'none'> | undefined {
  if (event.type === 'tick' && event.reply === 'ack' && event.command === ack) return 'ok';
  if (event.type === 'fault' && event.code === 'clock-error' && event.command === ack) return 'error';
  return undefined;
}

export interface ClockRetryPolicy {
  /** Tries in all (PROTOCOL.md 2.7: at most 3). */
  tries: number;
  /** How long each try waits for the clock's ack (ms). */
  ackMs: number;
  /** Pause before the second try (ms), doubled before each further one. */
  backoffMs: number;
}

export const CLOCK_RETRY: ClockRetryPolicy = { tries: 3, ackMs: 1500, backoffMs: 250 };

export type ClockStep =
  /** Send (again) after `delayMs`, then wait `waitMs` for the answer. */
  { next: 'send'; delayMs: number; waitMs: number } | { next: 'done'; outcome: ClockCommandOutcome };

/** After the answers so far (one per try, oldest first): send again, or what became of the command. */
export function nextClockStep(
  answers: readonly ClockAnswer[],
  policy: ClockRetryPolicy = CLOCK_RETRY,
): ClockStep {
  const tries = answers.length;
  if (answers.at(-1) === 'ok') return { next: 'done', outcome: { set: true, answers: [...answers] } };
  if (tries < policy.tries)
    return {
      next: 'send',
      delayMs: tries === 0 ? 0 : policy.backoffMs * 2 ** (tries - 1),
      waitMs: policy.ackMs,
    };
  const reason = answers.includes('error') ? 'refused' : 'no-answer';
  return { next: 'done', outcome: { set: false, reason, answers: [...answers] } };
}

/**
 * The same setting `elapsedMs` later: the running side's time gone down by it. A try sent again
 * seconds after the first must not give the running side those seconds back.
 */
export function clockLater(command: SetClockCommand, elapsedMs: number): SetClockCommand {
  const { running } = command;
  if (!running || elapsedMs <= 0) return command;
  return { ...command, [running]: Math.max(0, command[running] - elapsedMs) };
}
