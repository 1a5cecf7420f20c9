// A board (or whatever answers at its address) that answers `history` with more than any game can
// hold since the change asked for: the answer is not believed (nothing of it passed on, the board
// read afresh), and after three such answers in a row its history is asked no more and the
// arbiter is told beside the board.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { frameLine } from '../../../firmware-protocol/index.ts';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { parseSource } from '../../../daemon/config/index.ts';
import { BoardConnection, boardTransport } from '../../../daemon/transport/index.ts';

let server: Server | undefined;
let conn: BoardConnection | undefined;
afterEach(async () => {
  conn?.stop();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

const START = 'bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww';

describe('a history board whose answers no game can hold', () => {
  it('is read afresh each time, then asked no more, and the arbiter is told', async () => {
    let histories = 0;
    let dumps = 0;
    server = createServer((socket: Socket) => {
      let seq = 0;
      const say = (body: string) => socket.write(frameLine(body.replace('SEQ', String(seq++ % 256))));
      say('hello SEQ 1.1 serial=ROGUE-1 squares=50 senses=pieces caps=history boot=b1');
      say(`snap SEQ ${START}`);
      socket.on('data', (bytes) => {
        for (const line of bytes.toString().split('\n')) {
          if (line.startsWith('history ')) {
            histories++;
            // 20,000 changes "since" change 100 (at the board's 60 s), the board's clock at 61 s.
            const lines: string[] = [];
            for (let n = 101; n <= 20_100; n++)
              lines.push(frameLine(`rec ${seq++ % 256} ${n} ${60_000 + Math.floor((n - 100) / 20)} lift 32`));
            socket.write(lines.join(''));
            say('recs SEQ done 20100 61000');
            // …and the link drops, to come back with the same answer.
            setTimeout(() => socket.destroy(), 600);
          } else if (line.startsWith('dump')) {
            dumps++;
            say(`snap SEQ ${START}`);
          } else if (line.startsWith('ping')) say('pong SEQ');
        }
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const source = parseSource(`tcp://127.0.0.1:${port}`);
    if (!source.ok) throw new Error(source.error.message);
    const seen: BoardEvent[] = [];
    const problems: (string | undefined)[] = [];
    conn = new BoardConnection({
      source: `tcp://127.0.0.1:${port}`,
      ...boardTransport(source.value, { name: 'line' }, {}, {}),
      timing: { helloMs: 2000, silentMs: 4000, lostMs: 8000, livenessMs: 1000 },
      events: {
        onState: () => {},
        onEvents: (_, events) => seen.push(...events),
        onOpenProblem: (problem) => problems.push(problem),
      },
    });
    // Stored: change 100 of this power-up, at the board's 60 s.
    conn.remember({ serial: 'ROGUE-1', boot: 'b1', n: 100, ms: 60_000, tail: [] });
    conn.start();
    const end = Date.now() + 20_000;
    while (!problems.some((p) => p?.includes('implausible')) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    expect(problems.at(-1)).toContain('its history is implausible (implausible: 20000 changes in 1 s');
    expect(histories).toBe(3);
    // Nothing recalled was passed on: the board was read afresh (a dump asked) each time.
    expect(seen.some((e) => 'stamp' in e && e.stamp?.recalled)).toBe(false);
    while (dumps < 3 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(dumps).toBeGreaterThanOrEqual(3);
    // The next connection asks no history.
    const before = seen.filter((e) => e.type === 'hello').length;
    while (seen.filter((e) => e.type === 'hello').length === before && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    expect(histories).toBe(3);
  }, 30_000);
});
