// A DGT board back on its link streams field changes from the update mode on, before its serial
// number says who it is; the host asks its record (EE_MOVES) for what it missed. A change read in
// the same chunk as the serial number happened after the record's changes: it waits for them, and,
// being the record's last change too, it comes once.
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DgtBoardEncoder, DgtCommandParser } from '../../../firmware-protocol/dgt/encoder.ts';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { parseSource } from '../../../daemon/config/index.ts';
import { BoardConnection, boardTransport } from '../../../daemon/transport/index.ts';

let server: Server | undefined;
let conn: BoardConnection | undefined;
afterEach(async () => {
  conn?.stop();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
});

type Change = { type: 'lift'; square: number } | { type: 'put'; square: number; piece: 'w' | 'b' };
const at = (t: number, e: Change): BoardEvent => ({ t, ...e });

describe('a DGT board read back through its record', () => {
  it('a change in the same chunk as the serial number comes after the recalled ones, once', async () => {
    const board = new DgtBoardEncoder();
    // Stored before the link went: 32-28. Missed: 19-23. Live as the link comes back: 28 lifted.
    const stored: Change[] = [
      { type: 'lift', square: 32 },
      { type: 'put', square: 28, piece: 'w' },
    ];
    const missed = [
      at(2000, { type: 'lift', square: 19 }),
      at(2300, { type: 'put', square: 23, piece: 'b' }),
    ];
    const live = at(5000, { type: 'lift', square: 28 });
    for (const e of [at(0, stored[0]), at(300, stored[1]), ...missed, live]) board.remember(e);
    const hello: BoardEvent = {
      t: 5000,
      type: 'hello',
      serial: '00003',
      protocol: 'dgt',
      firmware: '1.0',
      squares: 50,
      senses: 'pieces',
    };
    let greeted = false;
    server = createServer((socket: Socket) => {
      const parser = new DgtCommandParser();
      socket.on('data', (bytes) => {
        for (const command of parser.push(bytes)) {
          if ((command.type === 'serial' || command.type === 'version') && !greeted) {
            greeted = true;
            // The change and the greeting in one write: the host reads them in one chunk.
            socket.write(Buffer.concat([board.encode(live), board.encode(hello)]));
          } else if (command.type === 'history') socket.write(board.eeMoves());
        }
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    const source = parseSource(`tcp://127.0.0.1:${port}`);
    if (!source.ok) throw new Error(source.error.message);
    const seen: BoardEvent[] = [];
    conn = new BoardConnection({
      source: `tcp://127.0.0.1:${port}`,
      ...boardTransport(source.value, { name: 'dgt' }, {}, {}),
      timing: { helloMs: 2000, silentMs: 4000, lostMs: 8000, livenessMs: 1000 },
      events: {
        onState: () => {},
        onEvents: (_, events) => seen.push(...events),
      },
    });
    conn.remember({ serial: '00003', tail: stored });
    conn.start();
    const end = Date.now() + 5000;
    while (!seen.some((e) => e.type === 'put' && e.square === 23) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 10));
    const changes = seen.flatMap((e) =>
      e.type === 'hello'
        ? ['hello']
        : e.type === 'lift'
          ? [`lift ${e.square}`]
          : e.type === 'put'
            ? [`put ${e.square}`]
            : [],
    );
    expect(changes).toEqual(['hello', 'lift 19', 'put 23', 'lift 28']);
  });
});
