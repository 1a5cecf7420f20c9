// `decide` on a `gap` alert over the WebSocket API: the arbiter picks a candidate line, or writes the
// moves from the score sheet; a line that does not reach the board is refused before it is journaled.
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import { Position } from '../../../src/engine/index.ts';
import { lineNotation } from '../../../src/tracker/gap/answer.ts';
import type { TrackerOutput } from '../../../src/tracker/types.ts';
import { gapOf, reconnected } from '../../src/tracker/fixtures/gap-lines.ts';
import { playText, run, Script } from '../../src/tracker/fixtures/hands.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { TestClient } from './fixtures/ws-client.ts';

let server: RunningServer | undefined;
const clients: TestClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});

/** A board whose dump after a gap fits two lines: the tracker's gap alert, fed to board 1. */
async function gapBoard() {
  const start = playText(Position.initial(), '32-28');
  const shown = ['18-22', '37-32', '20-24'].reduce(playText, start);
  const s = new Script(start);
  s.wait(1000).hello().snapshot(shown.toBoardString()).wait(1000).tick();
  const { hub, c } = await served(run(s.events, { start }).outputs);
  const alert = hub.snapshot(1)!.alerts.find((a) => a.rule === 'gap')!;
  return { hub, c, alert };
}

/** Board 1 fed the tracker's outputs, served, and an arbiter's client. */
async function served(outputs: TrackerOutput[]) {
  const hub = new FakeHub(1);
  hub.feed(1, ...outputs);
  server = await startServer({ hub, port: 0, tokens: { arbiter: 'arb' } });
  const c = await TestClient.open(`${server.wsUrl}?token=arb`);
  clients.push(c);
  return { hub, c };
}

describe('decide a gap over the WebSocket API', () => {
  it('the alert carries the candidate lines and the board; `line` picks one', async () => {
    const { hub, c, alert } = await gapBoard();
    expect(alert.candidates).toHaveLength(2);
    const r = await c.call('decide', { board: 1, alertId: alert.id, kind: 'line', line: 1 });
    expect(r.param).toEqual({ ok: true });
    expect(hub.calls).toEqual([
      { call: 'decide', board: 1, arg: { alertId: alert.id, kind: 'line', line: 1 } },
    ]);
    expect(hub.snapshot(1)!.alerts.find((a) => a.id === alert.id)!.decision).toMatchObject({
      kind: 'line',
      line: 1,
    });
  });

  it('`moves` from the score sheet that reach the board are taken; others are a bad-param error', async () => {
    const { hub, c, alert } = await gapBoard();
    const wrong = await c.call('decide', {
      board: 1,
      alertId: alert.id,
      kind: 'moves',
      pdn: '18-22 37-32 19-23',
    });
    expect(wrong.param).toEqual({
      code: 'bad-param',
      message: 'these moves do not lead to the position on the board',
    });
    const illegal = await c.call('decide', {
      board: 1,
      alertId: alert.id,
      kind: 'moves',
      pdn: '18-22 32-27',
    });
    expect(illegal.param.code).toBe('bad-param');
    expect(illegal.param.message).toMatch(/^move 2 \(32-27\)/);
    const noLine = await c.call('decide', { board: 1, alertId: alert.id, kind: 'line', line: 7 });
    expect(noLine.param).toEqual({ code: 'bad-param', message: `alert ${alert.id} has no line 7` });
    expect(hub.calls).toEqual([]);
    const good = await c.call('decide', {
      board: 1,
      alertId: alert.id,
      kind: 'moves',
      pdn: '1... 20-24 2. 37-32 18-22',
    });
    expect(good.param).toEqual({ ok: true });
    expect(hub.calls).toHaveLength(1);
  });

  it('a line for an alert that is no gap is refused', async () => {
    const { c, hub } = await gapBoard();
    hub.feed(1, {
      type: 'alert',
      t: 5,
      alert: { id: '9-5.4.6-1', rule: '5.4.6', ply: 9, side: 'white', message: 'x', t: 5, events: [] },
    });
    const r = await c.call('decide', { board: 1, alertId: '9-5.4.6-1', kind: 'line', line: 0 });
    expect(r.param.code).toBe('bad-param');
  });

  it('an unknown-position after lost events takes the score sheet: moves that reach its board, not a line', async () => {
    // Seed 2, 20 plies: no search of 2000 nodes (nor the stuck board's after it) finds the line.
    const gap = gapOf(2, 20, false)!;
    const line = lineNotation(gap.from, gap.line);
    const s = reconnected(gap, 60);
    const gapBudget = { step: 500, total: 2000 };
    const { hub, c } = await served(run(s.events, { start: gap.from, gapBudget }).outputs);
    const alert = hub.snapshot(1)!.alerts.find((a) => a.rule === 'unknown-position')!;
    expect(alert.boardShown).toBe(gap.to.toBoardString());
    const asLine = await c.call('decide', { board: 1, alertId: alert.id, kind: 'line', line: 0 });
    expect(asLine.param.code).toBe('bad-param');
    const short = await c.call('decide', {
      board: 1,
      alertId: alert.id,
      kind: 'moves',
      pdn: line.slice(0, 19).join(' '),
    });
    expect(short.param).toEqual({
      code: 'bad-param',
      message: 'these moves do not lead to the position on the board',
    });
    expect(hub.calls).toEqual([]);
    const good = await c.call('decide', { board: 1, alertId: alert.id, kind: 'moves', pdn: line.join(' ') });
    expect(good.param).toEqual({ ok: true });
    expect(hub.calls).toEqual([
      { call: 'decide', board: 1, arg: { alertId: alert.id, kind: 'moves', pdn: line.join(' ') } },
    ]);
  });
});
