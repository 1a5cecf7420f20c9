// The calibration calls (docs/api.md `calibrate`, `calibrate-cancel`): arbiter only, checked before
// they reach the hub; the session's outputs go to the calibrating connection alone, as feed
// messages with the call's id; a connection that goes away ends its calibrations.
import { afterEach, describe, expect, it } from 'vitest';
import type { Prompt } from '../../../firmware-protocol/index.ts';
import { calibrationFrame, readRequest } from '../../../daemon/server/protocol.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { closeServed, serveHub } from './fixtures/served-hub.ts';
import { until } from '../fixtures/controller-timing.ts';

afterEach(closeServed);

async function setup() {
  const hub = new FakeHub(2);
  return { hub, ...(await serveHub(hub, { arbiter: 'arb-secret' })) };
}

const PROMPT: Prompt = {
  action: 'lift-return',
  square: 7,
  n: 8,
  of: 54,
  text: 'Lift the piece on 7 and put it back.',
};

describe('WebSocket calibrate', () => {
  it('a spectator cannot calibrate nor cancel; nothing reaches the hub', async () => {
    const { hub, open } = await setup();
    const spectator = await open();
    expect((await spectator.call('calibrate', { board: 1 })).param.code).toBe('unauthorized');
    expect((await spectator.call('calibrate-cancel', { board: 1 })).param.code).toBe('unauthorized');
    expect((await spectator.call('calibrate', { board: 1, token: 'wrong' })).param.code).toBe('unauthorized');
    expect(hub.calls).toEqual([]);
  });

  it('an unknown board is not-found, a malformed one bad-param, a board being calibrated busy', async () => {
    const { hub, open } = await setup();
    const c = await open('?token=arb-secret');
    expect((await c.call('calibrate', { board: 9 })).param).toMatchObject({
      code: 'not-found',
      message: 'no board 9 in round 1',
    });
    expect((await c.call('calibrate', { board: 'one' })).param.code).toBe('bad-param');
    expect((await c.call('calibrate', {})).param.code).toBe('bad-param');
    expect(hub.calls).toEqual([]);
    expect((await c.call('calibrate', { board: 2 })).param).toEqual({ ok: true, board: 2 });
    expect((await c.call('calibrate', { board: 2 })).param.code).toBe('busy');
    expect((await c.call('calibrate-cancel', { board: 1 })).param.code).toBe('not-found');
  });

  it('outputs reach the calibrating connection only, with the call id; cancel ends it', async () => {
    const { hub, open } = await setup();
    const c = await open('?token=arb-secret');
    const other = await open('?token=arb-secret');
    await other.call('subscribe', { feed: 'alerts' });
    const answer = await c.call('calibrate', { board: 1 });
    expect(answer.param).toEqual({ ok: true, board: 1 });
    hub.calibrating.get(1)!.say({ type: 'prompt', prompt: PROMPT });
    const feed = await c.wait((m) => m.response === 'feed');
    expect(feed.id).toBe(answer.id);
    expect(feed.param).toEqual({ kind: 'calibration', board: 1, output: { type: 'prompt', prompt: PROMPT } });
    expect((await c.call('calibrate-cancel', { board: 1 })).param).toEqual({ ok: true, board: 1 });
    expect(c.messages.filter((m) => m.response === 'feed').map((m) => m.param.output.type)).toEqual([
      'prompt',
      'failed',
    ]);
    expect(hub.calibrating.has(1)).toBe(false);
    // Over: nothing more to cancel.
    expect((await c.call('calibrate-cancel', { board: 1 })).param.code).toBe('not-found');
    expect(other.messages.some((m) => m.param?.kind === 'calibration')).toBe(false);
  });

  it('a calibrating connection that closes cancels its calibration (the board goes back to its game)', async () => {
    const { hub, open } = await setup();
    const c = await open();
    expect((await c.call('auth', { token: 'arb-secret' })).param).toEqual({ role: 'arbiter' });
    await c.call('calibrate', { board: 2 });
    const run = hub.calibrating.get(2)!;
    c.close();
    await until(() => run.cancelled);
    expect(hub.calibrating.has(2)).toBe(false);
  });

  it('a hub that cannot calibrate says so', async () => {
    const hub = new FakeHub(1);
    Object.assign(hub, { calibrate: undefined });
    const c = await (await serveHub(hub, { arbiter: 'arb-secret' })).open('?token=arb-secret');
    expect((await c.call('calibrate', { board: 1 })).param).toMatchObject({ code: 'failed' });
  });
});

describe('calibration messages (protocol.ts)', () => {
  it('the calls read as any other; the feed frame carries the output as calibrate --json prints it', () => {
    expect(readRequest('{"id":3,"call":"calibrate","param":{"board":1}}')).toEqual({
      ok: true,
      value: { id: 3, call: 'calibrate', param: { board: 1 } },
    });
    const output = { type: 'learned', field: 17, square: 3, n: 2, of: 50 } as const;
    expect(JSON.parse(calibrationFrame('3', 1, output, 1000))).toEqual({
      response: 'feed',
      id: 3,
      param: { kind: 'calibration', board: 1, output },
      time: 1000,
    });
  });
});
