import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { type BoardProfile, createBoardEncoder, startPosition } from '../../../firmware-protocol/index.ts';
import { parseSource } from '../../../daemon/config/index.ts';
import {
  BoardConnection,
  boardTransport,
  type ConnectionTiming,
  type HidApi,
  type HidDevice,
} from '../../../daemon/transport/index.ts';
import type { ConnectionState } from '../../../src/game/types.ts';
import { boardProfile } from '../fixtures/board-profile.ts';
import { FakeBoard } from '../fixtures/fake-board.ts';

const FAST: Partial<ConnectionTiming> = {
  livenessMs: 40,
  silentMs: 150,
  lostMs: 300,
  helloMs: 100,
  backoffMs: 20,
  backoffCapMs: 80,
  resyncMs: 0,
};

/** FAST pings, but a starved test process does not make a talking board silent or late. */
const STEADY: Partial<ConnectionTiming> = { ...FAST, helloMs: 2000, silentMs: 2000, lostMs: 4000 };

const until = async (what: () => boolean, ms = 3000): Promise<void> => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

interface Seen {
  states: { state: ConnectionState; serial?: string }[];
  events: { serial: string; event: BoardEvent }[];
  raw: number[];
}

function connect(
  sourceText: string,
  deps = {},
  timing: Partial<ConnectionTiming> = FAST,
): { conn: BoardConnection; seen: Seen } {
  const source = parseSource(sourceText);
  if (!source.ok) throw new Error(source.error.message);
  const transport = boardTransport(source.value, { name: 'auto' }, {}, deps);
  const seen: Seen = { states: [], events: [], raw: [] };
  const conn = new BoardConnection({
    source: sourceText,
    ...transport,
    timing,
    events: {
      onState: (state, d) => seen.states.push({ state, serial: d.serial }),
      onEvents: (serial, events, raw) => {
        seen.raw.push(raw.length);
        for (const event of events) seen.events.push({ serial, event });
      },
    },
  });
  conns.push(conn);
  conn.start();
  return { conn, seen };
}

const conns: BoardConnection[] = [];
const boards: FakeBoard[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) c.stop();
  for (const b of boards.splice(0)) await b.close();
});

async function fakeBoard(serial: string): Promise<FakeBoard> {
  const b = new FakeBoard(serial);
  boards.push(b);
  await b.listen();
  return b;
}

describe('board connection over tcp', () => {
  it('identifies the board by its hello, then asks for a full dump', async () => {
    const board = await fakeBoard('DL-0001');
    const { seen } = connect(`tcp://127.0.0.1:${board.port}`, {}, STEADY);
    await until(() => seen.events.some((e) => e.event.type === 'snapshot'));
    expect(board.commands.slice(0, 2).map((c) => c.type)).toEqual(['identify', 'snapshot']);
    expect(seen.states[0]).toEqual({ state: 'active', serial: 'DL-0001' });
    expect(seen.events.map((e) => e.event.type)).toEqual(['hello', 'snapshot']);
    expect(seen.events.every((e) => e.serial === 'DL-0001')).toBe(true);
    expect(seen.raw.every((n) => n > 0)).toBe(true);
  });

  it('pings about once a liveness period and passes no pong on', async () => {
    const board = await fakeBoard('DL-0002');
    const { seen } = connect(`tcp://127.0.0.1:${board.port}`, {}, STEADY);
    await until(() => board.commands.filter((c) => c.type === 'ping').length >= 3);
    expect(seen.events.some((e) => e.event.type === 'tick')).toBe(false);
    expect(seen.states.map((s) => s.state)).toEqual(['active']);
  });

  it('does not ping a board that keeps talking: its own lines show it is alive', async () => {
    const board = await fakeBoard('DL-0012');
    // Periods of 200 ms and a line every 20 ms: even a starved test process leaves no quiet period.
    const { seen } = connect(
      `tcp://127.0.0.1:${board.port}`,
      {},
      { ...FAST, livenessMs: 200, silentMs: 2000, lostMs: 4000 },
    );
    await until(() => seen.events.some((e) => e.event.type === 'snapshot'));
    const before = board.commands.filter((c) => c.type === 'ping').length;
    // A line every 20 ms for 2 s (ten liveness periods).
    for (let i = 0; i < 100; i++) {
      board.send({ t: 0, type: i % 2 ? 'put' : 'lift', square: 32, ...(i % 2 ? { piece: 'w' } : {}) });
      await new Promise((r) => setTimeout(r, 20));
    }
    // Ten periods: pinged in each without the rule; a slow machine may leave a gap or two.
    expect(board.commands.filter((c) => c.type === 'ping').length - before).toBeLessThanOrEqual(3);
    // Quiet again: pinged once a period.
    await until(() => board.commands.filter((c) => c.type === 'ping').length >= before + 3);
    expect(seen.states.map((s) => s.state)).toEqual(['active']);
  });

  it('reconnects after the board drops the link and asks for a dump again', async () => {
    const board = await fakeBoard('DL-0003');
    const { seen } = connect(`tcp://127.0.0.1:${board.port}`, {}, STEADY);
    await until(() => seen.events.some((e) => e.event.type === 'snapshot'));
    board.unplug();
    await until(() => seen.states.some((s) => s.state === 'lost'));
    await until(() => seen.events.filter((e) => e.event.type === 'snapshot').length >= 2);
    expect(seen.states.map((s) => s.state)).toEqual(['active', 'lost', 'active']);
    expect(board.commands.filter((c) => c.type === 'snapshot').length).toBe(2);
  });

  it('goes silent, then lost, when the board stops answering, and comes back', async () => {
    const board = await fakeBoard('DL-0004');
    const { seen } = connect(`tcp://127.0.0.1:${board.port}`);
    await until(() => seen.states.some((s) => s.state === 'active'));
    board.mute = true;
    await until(() => seen.states.some((s) => s.state === 'lost'));
    expect(seen.states.map((s) => s.state)).toEqual(['active', 'silent', 'lost']);
    board.mute = false;
    await until(() => seen.states.at(-1)?.state === 'active');
  });

  it('keeps retrying while nothing listens, and picks the board up when it appears', async () => {
    const probe = await fakeBoard('probe');
    const port = probe.port;
    await probe.close();
    boards.pop();
    const { seen } = connect(`tcp://127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.states).toEqual([]);
    const board = new FakeBoard('DL-0005');
    boards.push(board);
    await board.listen(port);
    await until(() => seen.states.some((s) => s.state === 'active'));
    expect(seen.states[0].serial).toBe('DL-0005');
  });

  it('asks for a dump when the decoder reports a loss (fault with resync)', async () => {
    const board = await fakeBoard('DL-0006');
    const { seen } = connect(`tcp://127.0.0.1:${board.port}`, {}, STEADY);
    await until(() => seen.events.some((e) => e.event.type === 'snapshot'));
    board.sendBytes(new TextEncoder().encode('lift 9 23*0000\n'));
    await until(() => board.commands.filter((c) => c.type === 'snapshot').length >= 2);
    expect(seen.events.some((e) => e.event.type === 'fault' && e.event.resync)).toBe(true);
  });

  it('delivers board events in order with the serial', async () => {
    const board = await fakeBoard('DL-0007');
    const { seen } = connect(`tcp://127.0.0.1:${board.port}`, {}, STEADY);
    await until(() => seen.events.some((e) => e.event.type === 'snapshot'));
    board.send({ t: 0, type: 'lift', square: 32 });
    board.send({ t: 0, type: 'put', square: 28, piece: 'w' });
    await until(() => seen.events.some((e) => e.event.type === 'put'));
    const moves = seen.events
      .filter((e) => e.event.type === 'lift' || e.event.type === 'put')
      .map((e) => e.event);
    expect(moves).toMatchObject([
      { type: 'lift', square: 32 },
      { type: 'put', square: 28, piece: 'w' },
    ]);
  });
});

class FakeHidDevice extends EventEmitter implements HidDevice {
  written: number[][] = [];
  closed = false;
  write(report: number[]): number {
    this.written.push(report);
    return report.length;
  }
  close(): void {
    this.closed = true;
  }
}

describe('board connection over HID (fake device)', () => {
  it('says hello from the device info, turns reports into events, reopens after an error', async () => {
    const opened: FakeHidDevice[] = [];
    const api: HidApi = {
      devices: () => [{ vendorId: 0x1d50, productId: 0x6064, path: '/dev/hidraw9', serialNumber: 'HID-77' }],
      open: () => {
        const d = new FakeHidDevice();
        opened.push(d);
        return d;
      },
    };
    const { seen } = connect('hid:1d50:6064', { hid: async () => api });
    await until(() => opened.length === 1 && seen.states.length === 1);
    expect(seen.states[0]).toEqual({ state: 'active', serial: 'HID-77' });
    // The realtime command went out first.
    expect(opened[0].written.length).toBeGreaterThan(0);
    const encoder = createBoardEncoder('hid');
    const start = startPosition(10);
    opened[0].emit('data', Buffer.from(encoder.encode({ t: 0, type: 'snapshot', board: start })));
    const after = `${start.slice(0, 31)}.${start.slice(32)}`;
    opened[0].emit('data', Buffer.from(encoder.encode({ t: 0, type: 'snapshot', board: after })));
    await until(() => seen.events.some((e) => e.event.type === 'lift'));
    expect(seen.events[0].event).toMatchObject({ type: 'hello', serial: 'HID-77', protocol: 'hid' });
    expect(seen.events.find((e) => e.event.type === 'lift')?.event).toMatchObject({ square: 32 });
    opened[0].emit('error', new Error('could not read from HID device'));
    await until(() => opened.length === 2);
    expect(opened[0].closed).toBe(true);
    expect(seen.states.map((s) => s.state)).toEqual(['active', 'lost', 'active']);
  });
});

describe('board connection with calibrated profiles', () => {
  it('a board whose serial has a profile is read through it from its hello on; another board is not', async () => {
    const profile = boardProfile('DL-0077');
    const profiles = new Map([[profile.serial, profile]]);
    const calibrated = await fakeBoard('DL-0077');
    const other = await fakeBoard('DL-0078');
    const a = connect(`tcp://127.0.0.1:${calibrated.port}`, { profiles });
    const b = connect(`tcp://127.0.0.1:${other.port}`, { profiles });
    await until(() => [a, b].every(({ seen }) => seen.events.some((e) => e.event.type === 'snapshot')));
    calibrated.send({ t: 0, type: 'lift', square: 18 });
    other.send({ t: 0, type: 'lift', square: 18 });
    await until(() => [a, b].every(({ seen }) => seen.events.some((e) => e.event.type === 'lift')));
    // The calibrated board's firmware reports square 18 for what is square 33.
    expect(a.seen.events.find((e) => e.event.type === 'lift')?.event).toMatchObject({ square: 33 });
    expect(b.seen.events.find((e) => e.event.type === 'lift')?.event).toMatchObject({ square: 18 });
  });

  it('diverted (a calibration): the bytes go undecoded to the diversion, none to the game; after, a new profile applies at once', async () => {
    const profiles = new Map<string, BoardProfile>();
    const board = await fakeBoard('DL-0079');
    const { conn, seen } = connect(`tcp://127.0.0.1:${board.port}`, { profiles });
    await until(() => seen.events.some((e) => e.event.type === 'snapshot'));
    const diverted: number[] = [];
    const closed: string[] = [];
    const link = conn.divert({ onData: (bytes) => diverted.push(...bytes), onClose: (r) => closed.push(r) });
    expect(link).toBeDefined();
    expect(link?.hello).toMatchObject({ serial: 'DL-0079' });
    expect(conn.divert({ onData: () => {}, onClose: () => {} })).toBeUndefined();
    const before = seen.events.length;
    board.send({ t: 0, type: 'lift', square: 18 });
    await until(() => new TextDecoder().decode(new Uint8Array(diverted)).includes('18'));
    expect(seen.events.length).toBe(before);
    // Commands still reach the board through the diverted link.
    link!.write(conn.configuredDriver.encode({ type: 'snapshot' }));
    await until(() => board.commands.filter((c) => c.type === 'snapshot').length >= 2);
    // Calibrated meanwhile: the profile appears, the diversion ends, the connection reads through it.
    profiles.set('DL-0079', boardProfile('DL-0079'));
    link!.close();
    conn.refreshProfile();
    board.send({ t: 0, type: 'put', square: 18, piece: 'w' });
    await until(() => seen.events.some((e) => e.event.type === 'put'));
    expect(seen.events.find((e) => e.event.type === 'put')?.event).toMatchObject({ square: 33 });
    expect(seen.events.slice(before).some((e) => e.event.type === 'lift')).toBe(false);
    expect(closed).toEqual([]);
  });

  it('a diverted board whose link drops: the diversion is told, and ends', async () => {
    const board = await fakeBoard('DL-0080');
    const { conn, seen } = connect(`tcp://127.0.0.1:${board.port}`);
    await until(() => seen.events.some((e) => e.event.type === 'snapshot'));
    const closed: string[] = [];
    conn.divert({ onData: () => {}, onClose: (r) => closed.push(r) });
    board.unplug();
    await until(() => closed.length === 1);
    await until(() => seen.states.filter((s) => s.state === 'active').length === 2);
    expect(conn.divert({ onData: () => {}, onClose: () => {} })).toBeDefined();
  });
});
