// The `act` call (docs/api.md): arbiter only, checked before it reaches the hub — a game already
// over, Appendix G where it does not apply, a malformed action; `info` takes only the PDN
// TimeControl form.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { closeServed, serveHub } from './fixtures/served-hub.ts';

afterEach(closeServed);

async function setup(info = {}) {
  const hub = new FakeHub(2, 1, info);
  return { hub, ...(await serveHub(hub, { arbiter: 'arb-secret' })) };
}

describe('WebSocket act', () => {
  it('is an arbiter call; 7.2.1 reaches the hub and writes the result; nothing more once it is over', async () => {
    const { hub, open } = await setup();
    const spectator = await open();
    expect((await spectator.call('act', { board: 1, action: 'resign', side: 'white' })).param.code).toBe(
      'unauthorized',
    );
    const c = await open('?token=arb-secret');
    expect((await c.call('act', { board: 1, action: 'resign', side: 'white' })).param).toEqual({ ok: true });
    expect(hub.calls).toEqual([{ call: 'act', board: 1, arg: { type: 'resign', side: 'white' } }]);
    expect(hub.snapshot(1)!.result).toBe('0-2');
    const again = await c.call('act', { board: 1, action: 'draw-agreed' });
    expect(again.param).toMatchObject({ code: 'bad-param', message: expect.stringMatching(/over \(0-2\)/) });
    expect((await c.call('act', { board: 9, action: 'draw-agreed' })).param.code).toBe('not-found');
  });

  it('refuses Appendix G where it does not apply, and actions without their fields', async () => {
    const { hub, open } = await setup({ timeControl: '300' });
    const c = await open('?token=arb-secret');
    const g4 = await c.call('act', { board: 2, action: 'increment', side: 'black' });
    expect(g4.param).toMatchObject({
      code: 'bad-param',
      message: expect.stringMatching(/Appendix G does not apply/),
    });
    const noDecision = await c.call('act', { board: 2, action: 'claim', side: 'black' });
    expect(noDecision.param.code).toBe('bad-param');
    const noSide = await c.call('act', { board: 2, action: 'resign' });
    expect(noSide.param.code).toBe('bad-param');
    expect(hub.calls).toEqual([]);
  });

  it('G.4 and G.5 answer whether the clock was set, or must be set by hand and why', async () => {
    const hub = new FakeHub([{ board: 1, timeControl: '3600', quickplayFinish: true }]);
    const { open } = await serveHub(hub, { arbiter: 'arb-secret' });
    const c = await open('?token=arb-secret');
    // No clock known yet: nothing to set, the answer says nothing of a clock.
    expect((await c.call('act', { board: 1, action: 'increment', side: 'white' })).param).toEqual({
      ok: true,
    });
    hub.clock(1, 100_000, 590_000, 'white');
    hub.clockAnswer = { set: false, reason: 'no-answer', answers: ['none', 'none', 'none'] };
    const rejected = await c.call('act', { board: 1, action: 'claim', side: 'white', decision: 'reject' });
    expect(rejected.param).toEqual({
      ok: true,
      clock: { set: false, reason: 'no-answer', answers: ['none', 'none', 'none'] },
    });
    expect(hub.snapshot(1)!.clockCommand).toMatchObject({ set: false, reason: 'no-answer' });
    hub.clockAnswer = { set: true, answers: ['error', 'ok'] };
    const postponed = await c.call('act', { board: 1, action: 'claim', side: 'white', decision: 'postpone' });
    expect(postponed.param).toEqual({ ok: true, clock: { set: true, answers: ['error', 'ok'] } });
    expect(hub.snapshot(1)!.clockCommand).toMatchObject({ set: true });
  });

  it('info takes a time control only in the PDN TimeControl form', async () => {
    const { open } = await setup();
    const c = await open('?token=arb-secret');
    expect((await c.call('info', { board: 1, info: { timeControl: '90 min' } })).param.code).toBe(
      'bad-param',
    );
    expect((await c.call('info', { board: 1, info: { timeControl: '40/5400:1800+30' } })).param).toEqual({
      ok: true,
    });
  });
});
