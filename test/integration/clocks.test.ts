// The end of the game through the WebSocket API of a real daemon, journaled: 7.2.1, 7.3.1, 7.2.4,
// draw offers, Appendix G (G.4, G.5 accept / postpone / reject, G.6) — each on its own board, the
// clock settings sent to the boards whose clocks take them (line `caps=clock`), the one that does not
// said to be set by hand, and a restart keeps every state.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostCommand } from '../../firmware-protocol/types.ts';
import type { GameSnapshot } from '../../src/game/types.ts';
import { FakeBoard } from '../daemon/fixtures/fake-board.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { cleanUp, type Daemon, onCleanup, startDaemon, tempDir, until } from './fixtures/helpers.ts';

afterEach(cleanUp);

const TOKEN = 'arbiter-secret-clocks-1';
/** What each board's arbiter enters, in order. */
const SCRIPT: Record<number, object[]> = {
  1: [{ action: 'increment', side: 'white' }],
  2: [{ action: 'claim', side: 'white', decision: 'accept' }],
  3: [
    { action: 'draw-offer', side: 'black' },
    { action: 'claim', side: 'white', decision: 'postpone' },
  ],
  4: [{ action: 'claim', side: 'white', decision: 'reject' }],
  5: [{ action: 'claim-ends', side: 'white' }],
  6: [{ action: 'resign', side: 'white' }],
  7: [{ action: 'draw-agreed' }],
  8: [{ action: 'refusal', side: 'black' }],
};
const BOARDS = Object.keys(SCRIPT).map(Number);

async function hall(): Promise<{ boards: FakeBoard[]; start: () => Promise<Daemon> }> {
  // Board 4's clock takes no settings: its hello announces no `clock`.
  const boards = BOARDS.map((n) => new FakeBoard(`DL-${n}`, 'line', n === 4 ? [] : ['clock']));
  for (const b of boards) {
    await b.listen();
    onCleanup(() => b.close());
  }
  const dir = tempDir('it-clocks');
  const config = join(dir, 'damlink.yaml');
  writeFileSync(
    config,
    [
      'timeControl: "3600"',
      'quickplayFinish: true',
      `tokens: { arbiter: ${TOKEN} }`,
      'boards:',
      ...boards.map((b) => `  - source: tcp://127.0.0.1:${b.port}`),
    ].join('\n'),
  );
  const start = async () => {
    const d = await startDaemon([], join(dir, 'data'), ['--config', config]);
    onCleanup(() => d.stop());
    return d;
  };
  return { boards, start };
}

const connect = async (d: Daemon) => {
  const c = await TestClient.open(`${d.url.replace('http', 'ws')}/api/v1?token=${TOKEN}`);
  onCleanup(async () => c.ws.close());
  return c;
};
const game = async (c: TestClient, board: number): Promise<GameSnapshot> =>
  (await c.call('games', { board })).param[0];
const setClocks = (b: FakeBoard) =>
  b.commands.filter((cmd): cmd is Extract<HostCommand, { type: 'set-clock' }> => cmd.type === 'set-clock');

describe('the end of the game through the API, journaled', () => {
  it('every article on its own board; the boards’ clocks are set; a restart keeps it all', async () => {
    const { boards, start } = await hall();
    const daemon = await start();
    const c = await connect(daemon);
    // Each board's clock: White to move with 90 s, Black 10 min.
    await until(
      async () => {
        for (const b of boards)
          b.send({ t: 0, type: 'clock', white: 90_000, black: 600_000, running: 'white' });
        const games = await Promise.all(BOARDS.map((n) => game(c, n)));
        return games.every((g) => g.clock?.white === 90_000) || undefined;
      },
      15_000,
      'every board reports its clock',
    );

    const answers: Record<string, unknown> = {};
    // The board list says, before any setting, which clock takes none: board 4 announced no clock.
    const listed = (await c.call('boards')).param.boards as { board: number; clockByHand?: string }[];
    expect(listed.find((b) => b.board === 4)?.clockByHand).toBe('no-capability');
    expect(listed.filter((b) => b.clockByHand !== undefined).map((b) => b.board)).toEqual([4]);

    for (const n of BOARDS)
      for (const step of SCRIPT[n]) {
        const answer = await c.call('act', { board: n, ...step });
        expect(answer.param, `board ${n} ${JSON.stringify(step)}`).toMatchObject({ ok: true });
        answers[`${n} ${(step as { action: string }).action}`] = answer.param;
      }
    // The answer says whether the clock was set: sent to a line clock (no acks in that protocol), or
    // to be set by hand on the board whose clock takes no settings; actions that add no time say nothing.
    expect(answers['1 increment']).toEqual({ ok: true, clock: { set: true, answers: [] } });
    expect(answers['4 claim']).toEqual({
      ok: true,
      clock: { set: false, reason: 'no-capability', answers: [] },
    });
    expect(answers['6 resign']).toEqual({ ok: true });

    const check = async () => {
      const g = Object.fromEntries(
        await Promise.all(BOARDS.map(async (n) => [n, await game(c2, n)] as const)),
      );
      // G.4: the increment in force, two minutes to Black.
      expect(g[1].quickplay).toEqual({ applies: true, incrementMs: 5000 });
      expect(g[1].clock?.black).toBeGreaterThanOrEqual(720_000);
      // G.5 accept / postpone / reject.
      expect(g[2].result).toBe('1-1');
      expect(g[3].result).toBe('*');
      expect(g[3].quickplay?.postponed?.side).toBe('white');
      expect(g[3].actions?.map((a) => a.action.type)).toEqual(['draw-offer', 'claim']);
      expect(g[4].result).toBe('*');
      expect(g[4].quickplay?.postponed).toBeUndefined();
      // G.6: ended, the draw left for the appointed arbiter.
      expect(g[5].quickplay?.ended?.side).toBe('white');
      expect(g[5].proposedResult?.reason).toMatch(/^G\.6/);
      // 7.2.1, 7.3.1, 7.2.4.
      expect([g[6].result, g[7].result, g[8].result]).toEqual(['0-2', '1-1', '2-0']);
      // What the clocks did with the settings, from the journal after a restart too.
      expect(g[3].clockCommand).toMatchObject({ set: true });
      expect(g[4].clockCommand).toMatchObject({ set: false, reason: 'no-capability' });
      expect(g[6].clockCommand).toBeUndefined();
    };
    let c2 = c;
    await check();
    // The clocks that accept commands were set: two minutes to Black for G.4 and G.5 postpone; the
    // clock without the capability was sent nothing.
    for (const n of [1, 3]) {
      await until(
        () => setClocks(boards[n - 1]).some((s) => s.black >= 720_000) || undefined,
        5000,
        `board ${n} clock set`,
      );
    }
    expect(setClocks(boards[1])).toEqual([]);
    expect(setClocks(boards[3])).toEqual([]);

    // G.4 goes on: after White's press the clock (no increment of its own) is set 5 s higher.
    boards[0].send({ t: 0, type: 'press', side: 'white' });
    boards[0].send({ t: 0, type: 'clock', white: 80_000, black: 720_000, running: 'black' });
    await until(
      () => setClocks(boards[0]).find((s) => s.white === 85_000 && s.running === 'black'),
      5000,
      'the G.4 increment set after the press',
    );

    // A game that is over takes no more actions; Appendix G needs its conditions.
    expect((await c.call('act', { board: 6, action: 'draw-agreed' })).param.code).toBe('bad-param');

    await daemon.stop();
    const again = await start();
    c2 = await connect(again);
    await check();
    const pdn = await (await fetch(`${again.url}/rounds/1/games.pdn`)).text();
    for (const text of [
      'G.4: White asked for the increment',
      "G.5: White's draw claim accepted",
      'Black offers a draw',
      'G.6:',
      '7.2.1: White resigned',
      '7.3.1: draw by agreement',
      '7.2.4: Black refused',
    ])
      expect(pdn).toContain(text);
  });
});
