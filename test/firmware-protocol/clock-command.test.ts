// The pure half of setting a clock (PROTOCOL.md 1.9, 2.7): which boards take the command, which ack
// says it was done, what to do after each answer, and the time a resent setting has lost.
import { describe, expect, it } from 'vitest';
import {
  CLOCK,
  CLOCK_RETRY,
  canEncodeHostCommand,
  clockAnswerIn,
  clockLater,
  commandRoute,
  createDecoder,
  encodeDgtClockAck,
  CLOCK_ACK,
  type HelloEvent,
  type HostCommand,
  nextClockStep,
  type ProtocolName,
} from '../../firmware-protocol/index.ts';

const SET: HostCommand = { type: 'set-clock', white: 85_000, black: 720_000, running: 'black' };
const hello = (capabilities?: string[]): HelloEvent => ({
  t: 0,
  type: 'hello',
  serial: 'DL-1',
  protocol: 'damlink-line/1.0',
  squares: 50,
  senses: 'pieces',
  ...(capabilities ? { capabilities } : {}),
});
const route = (protocol: ProtocolName, cmd: HostCommand, h?: HelloEvent) =>
  commandRoute(protocol, cmd, canEncodeHostCommand(protocol, cmd), h);

describe('commandRoute: who takes a clock setting', () => {
  it('line boards only with caps=clock (and text, leds with theirs); the mandatory commands always', () => {
    expect(route('line', SET, hello())).toEqual({ send: false, reason: 'no-capability' });
    expect(route('line', SET, hello(['text', 'leds']))).toEqual({ send: false, reason: 'no-capability' });
    expect(route('line', SET, undefined)).toEqual({ send: false, reason: 'no-capability' });
    expect(route('line', SET, hello(['clock']))).toEqual({ send: true });
    expect(route('line', { type: 'display', text: 'hi' }, hello(['clock']))).toMatchObject({ send: false });
    expect(route('line', { type: 'leds', squares: [] }, hello(['leds']))).toEqual({ send: true });
    expect(route('line', { type: 'snapshot' }, hello())).toEqual({ send: true });
  });

  it('DGT: sent, acknowledged by the SETNRUN ack; HID boards have no clock command', () => {
    expect(route('dgt', SET)).toEqual({ send: true, ack: CLOCK.SETNRUN });
    expect(route('hid', SET)).toEqual({ send: false, reason: 'no-command' });
  });
});

describe('clockAnswerIn: the decoded ack of the command asked', () => {
  const decode = (bytes: Uint8Array) => createDecoder('dgt').push(bytes, 1)[0];
  it('ok and error acks of SETNRUN answer it; the ack of the END after it does not', () => {
    expect(clockAnswerIn(decode(encodeDgtClockAck(CLOCK.SETNRUN)), CLOCK.SETNRUN)).toBe('ok');
    expect(clockAnswerIn(decode(encodeDgtClockAck(CLOCK.SETNRUN, CLOCK_ACK.ERROR)), CLOCK.SETNRUN)).toBe(
      'error',
    );
    expect(clockAnswerIn(decode(encodeDgtClockAck(CLOCK.END)), CLOCK.SETNRUN)).toBeUndefined();
    expect(clockAnswerIn({ t: 1, type: 'tick', reply: 'pong' }, CLOCK.SETNRUN)).toBeUndefined();
  });
});

describe('nextClockStep: at most 3 tries, with backoff', () => {
  it('sends at once, again after a refusal or silence (pausing 250 ms, then 500 ms), done at ok', () => {
    expect(nextClockStep([])).toEqual({ next: 'send', delayMs: 0, waitMs: CLOCK_RETRY.ackMs });
    expect(nextClockStep(['error'])).toEqual({ next: 'send', delayMs: 250, waitMs: CLOCK_RETRY.ackMs });
    expect(nextClockStep(['none', 'error'])).toEqual({
      next: 'send',
      delayMs: 500,
      waitMs: CLOCK_RETRY.ackMs,
    });
    expect(nextClockStep(['error', 'ok'])).toEqual({
      next: 'done',
      outcome: { set: true, answers: ['error', 'ok'] },
    });
  });

  it('after three tries: refused when the clock ever refused, else no answer', () => {
    expect(nextClockStep(['none', 'none', 'none'])).toEqual({
      next: 'done',
      outcome: { set: false, reason: 'no-answer', answers: ['none', 'none', 'none'] },
    });
    expect(nextClockStep(['error', 'none', 'none'])).toMatchObject({
      outcome: { set: false, reason: 'refused' },
    });
  });
});

describe('clockLater', () => {
  it("the running side's time goes down by the time passed; the other side's stays", () => {
    expect(clockLater(SET as Extract<HostCommand, { type: 'set-clock' }>, 1500)).toEqual({
      ...SET,
      black: 718_500,
    });
    const stopped = { type: 'set-clock', white: 1000, black: 2000, running: null } as const;
    expect(clockLater(stopped, 5000)).toEqual(stopped);
    expect(clockLater({ ...stopped, running: 'white' }, 5000)).toMatchObject({ white: 0 });
  });
});
