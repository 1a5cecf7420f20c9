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
