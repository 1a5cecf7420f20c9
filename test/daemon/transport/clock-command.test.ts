// Setting a board's clock through the daemon's transport (PROTOCOL.md 2.7, 1.9): a DGT clock is sent
// SETNRUN + END and tried again until it acknowledges SETNRUN (at most 3 tries); a refusal or silence
// is what the outcome says, so the arbiter sets the clock by hand. Line boards are sent a clock
// setting only when their hello announced `caps=clock`.
import { afterEach, describe, expect, it } from 'vitest';
import { parseSource } from '../../../daemon/config/index.ts';
import { BoardConnection, boardTransport, type ConnectionTiming } from '../../../daemon/transport/index.ts';
import type { ProtocolName } from '../../../firmware-protocol/protocols.ts';
import { until } from '../fixtures/controller-timing.ts';
import { FakeBoard } from '../fixtures/fake-board.ts';

const FAST: Partial<ConnectionTiming> = {
  livenessMs: 40,
  silentMs: 1000,
  lostMs: 3000,
  helloMs: 100,
  backoffMs: 20,
  backoffCapMs: 80,
  resyncMs: 0,
  // Long enough for a loaded machine: a clock that answers is never taken for a silent one.
  clockAckMs: 2000,
  clockBackoffMs: 20,
};

const conns: BoardConnection[] = [];
const boards: FakeBoard[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) c.stop();
  for (const b of boards.splice(0)) await b.close();
});

/** A fake board and a connection to it, once the board is identified. */
async function connected(protocol: ProtocolName, capabilities: string[] = [], clockAckMs = FAST.clockAckMs) {
  const board = new FakeBoard(`DL-${boards.length + 1}`, protocol, capabilities);
  boards.push(board);
  await board.listen();
  const text = `tcp://127.0.0.1:${board.port}`;
  const source = parseSource(text);
  if (!source.ok) throw new Error(source.error.message);
  let active = false;
  const conn = new BoardConnection({
    source: text,
    ...boardTransport(source.value, { name: protocol }, {}),
    timing: { ...FAST, clockAckMs },
    events: {
      onState: (state) => {
        active = state === 'active';
      },
      onEvents: () => {},
    },
  });
  conns.push(conn);
  conn.start();
  await until(() => active && board.commands.some((c) => c.type === 'snapshot'));
  return { board, conn };
}

const SETTING = { type: 'set-clock', white: 85_000, black: 720_000, running: 'black' } as const;
const setClocks = (b: FakeBoard) => b.commands.filter((c) => c.type === 'set-clock');

describe('DGT clock settings, acknowledged', () => {
  it('sends SETNRUN then END; a refused try is sent again and the ok ack ends it', async () => {
    const { board, conn } = await connected('dgt');
    board.clockAnswers = ['error', 'ok'];
    const outcome = await conn.setClock(SETTING);
    expect(outcome).toEqual({ set: true, answers: ['error', 'ok'] });
    const tries = setClocks(board);
    expect(tries).toHaveLength(2);
    // Left is White: 0:01:25 left (binary 00 01 19), 0:12:00 right, the right side runs; then END.
    // Black's clock runs: a try sent a millisecond after it was asked for shows 0:11:59 (00 0b 3b).
    expect(Buffer.concat(board.received).toString('hex')).toMatch(
      /2b0a030a00011900(0c00|0b3b)02002b03030300/,
    );
    // The second try does not give Black back the time that passed since the first.
    expect(tries[1]).toMatchObject({ white: 85_000, running: 'black' });
    expect((tries[1] as typeof SETTING).black).toBeLessThanOrEqual(720_000);
  });

  it.each([
    // A silent clock: each try waits 150 ms for nothing.
    ['never answers', 'none', 'no-answer', 150],
    // Its END ack comes fine each time: it is not taken for the ack of SETNRUN.
    ['refuses every try (not in mode 23)', 'error', 'refused', FAST.clockAckMs],
  ] as const)(
    'a clock that %s is tried three times, then the outcome says why',
    async (_, answer, reason, ackMs) => {
      const { board, conn } = await connected('dgt', [], ackMs);
      board.clockAnswers = [answer, answer, answer];
      const outcome = await conn.setClock(SETTING);
      expect(outcome).toEqual({ set: false, reason, answers: [answer, answer, answer] });
      expect(setClocks(board)).toHaveLength(3);
    },
  );

  it('a newer setting replaces one still waiting for its answer', async () => {
    const { board, conn } = await connected('dgt');
    board.clockAnswers = ['none', 'ok'];
    const first = conn.setClock(SETTING);
    await until(() => setClocks(board).length === 1);
    const second = conn.setClock({ ...SETTING, white: 90_000 });
    expect(await first).toEqual({ set: false, reason: 'replaced', answers: [] });
    expect(await second).toEqual({ set: true, answers: ['ok'] });
  });
});

describe('line boards: clock settings only with caps=clock (PROTOCOL.md 1.9)', () => {
  it('a board that announced no clock is sent none: to be set by hand', async () => {
    const { board, conn } = await connected('line');
    expect(await conn.setClock(SETTING)).toEqual({ set: false, reason: 'no-capability', answers: [] });
    expect(conn.send({ type: 'leds', squares: [32, 28] })).toBe(false);
    await new Promise((r) => setTimeout(r, 100));
    expect(setClocks(board)).toEqual([]);
    expect(board.commands.some((c) => c.type === 'leds')).toBe(false);
  });

  it('a board with caps=clock gets the setting (the line protocol acknowledges nothing)', async () => {
    const { board, conn } = await connected('line', ['clock']);
    expect(await conn.setClock(SETTING)).toEqual({ set: true, answers: [] });
    await until(() => setClocks(board).length === 1);
    expect(setClocks(board)[0]).toEqual(SETTING);
  });
});
