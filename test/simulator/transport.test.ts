// Whole games over real transports: what the host decodes is exactly what the virtual board sent,
// and what the board sent is exactly the simulator's ground truth (plus its replies).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SerialPort } from 'serialport';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import { createDecoder, encodeHostCommand, LINE_PROTOCOL_VERSION } from '../../firmware-protocol/index.ts';
import type { HostCommand, ProtocolOptions } from '../../firmware-protocol/types.ts';
import { parseSource } from '../../daemon/config/index.ts';
import { BoardConnection, boardTransport } from '../../daemon/transport/index.ts';
import { type Simulation, startSimulation } from '../../simulator/index.ts';
import { boardAfter, GAME, recordingBoards } from './fixtures/helpers.ts';

// A history board's number and time of each change are its own, not the game's.
const strip = (e: BoardEvent): string => {
  const { t: _t, stamp: _stamp, ...rest } = e as BoardEvent & { stamp?: unknown };
  return JSON.stringify(rest, Object.keys(rest).sort());
};

/** True when every item of `sub` appears in `all` in order. */
function isSubsequence(sub: readonly string[], all: readonly string[]): boolean {
  let k = 0;
  for (const x of all) if (k < sub.length && x === sub[k]) k++;
  return k === sub.length;
}

const notClock = (json: string) => JSON.parse(json).type !== 'clock';

/** What `all` has beyond the subsequence `sub` (matched greedily, in order). */
function extras(all: readonly string[], sub: readonly string[]): string[] {
  const out: string[] = [];
  let k = 0;
  for (const x of all) {
    if (k < sub.length && x === sub[k]) k++;
    else out.push(x);
  }
  return out;
}

interface Host {
  events: BoardEvent[];
  send(cmd: HostCommand, options?: ProtocolOptions): void;
  close(): void;
}

/** The two things a host needs of a byte stream (a socket, a serial port, a Duplex). */
interface ByteStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  write(chunk: Buffer): unknown;
}

function hostOn(
  stream: ByteStream,
  protocol: 'line' | 'dgt',
  close: () => void,
  options: ProtocolOptions = {},
): Host {
  const decoder = createDecoder(protocol, options);
  const events: BoardEvent[] = [];
  stream.on('data', (chunk) => events.push(...decoder.push(chunk, Date.now())));
  return {
    events,
    send: (cmd, opts = options) => void stream.write(Buffer.from(encodeHostCommand(protocol, cmd, opts))),
    close,
  };
}

async function tcpHost(address: string, protocol: 'line' | 'dgt'): Promise<Host> {
  const [host, port] = address.replace('tcp://', '').split(':');
  const socket = connect(Number(port), host);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return hostOn(socket, protocol, () => socket.destroy());
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
}

/** The simulator's ground-truth events of every game the board played, in order. */
const truthOf = (sim: Simulation, i: number): BoardEvent[] =>
  sim.boards[i].board.games.flatMap((g) => g.events);

let sim: Simulation | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

describe('virtual boards over real transports', () => {
  it('tcp, line protocol: three boards, the host decodes exactly what each board sent; replies to dump and ping', async () => {
    sim = await recordingBoards({ boards: 3, transport: 'tcp', protocol: 'line', seed: 21 });
    const hosts = await Promise.all(sim.boards.map((b) => tcpHost(b.address, 'line')));
    await new Promise((r) => setTimeout(r, 60));
    for (const h of hosts) {
      h.send({ type: 'snapshot' });
      h.send({ type: 'ping' });
    }
    await sim.done;
    await until(() => hosts.every((h, i) => h.events.length >= sim!.boards[i].board.sent.length));
    sim.boards.forEach((b, i) => {
      const sent = b.board.sent.map(strip);
      expect(hosts[i].events.map(strip)).toEqual(sent);
      const truth = truthOf(sim!, i).map(strip);
      expect(truth.length).toBeGreaterThan(40);
      expect(isSubsequence(truth, sent)).toBe(true);
      // Everything else the board sent is its replies (hello, the dump, the pong) and the running
      // clock it sends every second.
      expect(extras(sent, truth).filter(notClock)).toEqual([
        expect.stringContaining('"hello"'),
        expect.stringContaining('"snapshot"'),
        expect.stringContaining('"pong"'),
      ]);
      expect(hosts[i].events.filter((e) => e.type === 'tick' && e.reply === 'pong')).toHaveLength(1);
      expect(hosts[i].events[0]).toMatchObject({
        type: 'hello',
        serial: b.serial,
        squares: 50,
        senses: 'pieces',
      });
      expect(boardAfter(hosts[i].events)).toBe(b.board.games[0].finalBoard);
    });
    for (const h of hosts) h.close();
  });

  it('tcp, DGT protocol: quiet until update mode; field changes, dumps and presses exact, clocks to the second', async () => {
    sim = await recordingBoards({ boards: 2, transport: 'tcp', protocol: 'dgt', seed: 5 });
    const hosts = await Promise.all(sim.boards.map((b) => tcpHost(b.address, 'dgt')));
    for (const h of hosts) {
      h.send({ type: 'update-mode', mode: 'changes+clock-nice' });
      h.send({ type: 'snapshot' });
    }
    await sim.done;
    await new Promise((r) => setTimeout(r, 150));
    sim.boards.forEach((b, i) => {
      const board = (e: BoardEvent) =>
        e.type === 'lift' || e.type === 'put' || e.type === 'snapshot' || e.type === 'press';
      const sent = b.board.sent.filter(board).map(strip);
      expect(hosts[i].events.filter(board).map(strip)).toEqual(sent);
      expect(sent.length).toBeGreaterThan(40);
      const toSecond = (e: BoardEvent) =>
        e.type === 'clock' ? `${Math.floor(e.white / 1000)}/${Math.floor(e.black / 1000)}/${e.running}` : '';
      const clocks = (list: BoardEvent[]) => list.filter((e) => e.type === 'clock').map(toSecond);
      expect(isSubsequence(clocks(b.board.sent), clocks(hosts[i].events))).toBe(true);
      expect(hosts[i].events.some((e) => e.type === 'fault')).toBe(false);
      expect(boardAfter(hosts[i].events)).toBe(b.board.games[0].finalBoard);
    });
    for (const h of hosts) h.close();
  });

  it('socat PTY, line protocol: two boards start when the host speaks; decoded exactly', async () => {
    sim = await recordingBoards({ boards: 2, transport: 'pty', protocol: 'line', seed: 8 });
    const hosts: Host[] = [];
    for (const b of sim.boards) {
      expect(b.board.isStarted).toBe(false);
      const port = new SerialPort({ path: b.address, baudRate: 9600 });
      await new Promise<void>((resolve, reject) => {
        port.once('open', () => resolve());
        port.once('error', reject);
      });
      const host = hostOn(port, 'line', () => port.close());
      host.send({ type: 'identify' });
      hosts.push(host);
    }
    await sim.done;
    await until(() => hosts.every((h, i) => h.events.length >= sim!.boards[i].board.sent.length));
    sim.boards.forEach((b, i) => {
      const sent = b.board.sent.map(strip);
      expect(hosts[i].events.map(strip)).toEqual(sent);
      expect(isSubsequence(truthOf(sim!, i).map(strip), sent)).toBe(true);
      // `ident` is answered with hello and snap (PROTOCOL.md 1.7).
      expect(extras(sent, truthOf(sim!, i).map(strip)).filter(notClock)).toEqual([
        expect.stringContaining('"hello"'),
        expect.stringContaining('"snapshot"'),
      ]);
    });
    for (const h of hosts) h.close();
  });

  it('a board survives the host disconnecting and reconnecting: hello again, the dump shows the board now, play resumes', async () => {
    sim = await recordingBoards({
      boards: 1,
      transport: 'tcp',
      protocol: 'line',
      seed: 13,
      gamesPerBoard: 2,
      game: { ...GAME, maxPlies: 8 },
    });
    const b = sim.boards[0];
    const first = await tcpHost(b.address, 'line');
    await until(() => first.events.length > 15);
    first.close();
    await new Promise((r) => setTimeout(r, 100));
    const second = await tcpHost(b.address, 'line');
    await until(() => second.events.length > 0);
    const from = b.board.sent.findLastIndex((e) => e.type === 'hello');
    second.send({ type: 'snapshot' });
    await sim.done;
    await until(() => second.events.length >= b.board.sent.length - from);
    expect(b.board.games).toHaveLength(2);
    const afterReconnect = b.board.sent.slice(from).map(strip);
    expect(second.events.map(strip)).toEqual(afterReconnect);
    expect(second.events[0]).toMatchObject({ type: 'hello' });
    const dump = second.events.find((e) => e.type === 'snapshot');
    expect(dump).toBeDefined();
    // Dump + everything after it = the final board of the second game (set up between games by hand).
    const fromDump = second.events.slice(second.events.indexOf(dump!));
    expect(boardAfter(fromDump)).toBe(b.board.games[1].finalBoard);
    second.close();
  });

  it('in-process: the host end is a Duplex stream', async () => {
    sim = await recordingBoards({ boards: 1, transport: 'memory', protocol: 'line', seed: 4 });
    const b = sim.boards[0];
    const host = hostOn(b.stream!, 'line', () => b.stream!.destroy());
    await sim.done;
    await until(() => host.events.length >= b.board.sent.length);
    expect(host.events.map(strip)).toEqual(b.board.sent.map(strip));
    expect(sim.connect('board-1')).toBe(b.stream);
    host.close();
    const again = hostOn(sim.connect('1'), 'line', () => {});
    again.send({ type: 'snapshot' });
    await until(() => again.events.length >= 2);
    expect(again.events[1]).toMatchObject({ type: 'snapshot', board: b.board.games[0].finalBoard });
  });
});

describe('board kinds over the wire', () => {
  it('64-square DGT board and an occupancy-only line board; ground-truth files written as games start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'damlink-sim-out-'));
    const game = { ...GAME, variant: 'brazilian' as const };
    sim = await recordingBoards({
      boards: 1,
      transport: 'memory',
      protocol: 'dgt',
      seed: 2,
      game,
      eventsOut: dir,
    });
    const dgt = sim.boards[0];
    const host = hostOn(dgt.stream!, 'dgt', () => {}, { size: 8 });
    host.send({ type: 'update-mode', mode: 'changes' }, { size: 8 });
    host.send({ type: 'snapshot' }, { size: 8 });
    await sim.done;
    await new Promise((r) => setTimeout(r, 100));
    const moves = (list: BoardEvent[]) =>
      list.filter((e) => e.type === 'lift' || e.type === 'put' || e.type === 'snapshot').map(strip);
    expect(moves(host.events)).toEqual(moves(dgt.board.sent));
    expect(boardAfter(host.events)).toBe(dgt.board.games[0].finalBoard);
    expect(dgt.board.games[0].finalBoard).toHaveLength(32);
    expect(readdirSync(dir).sort()).toEqual([
      'board-1-g1.injected.json',
      'board-1-g1.jsonl',
      'board-1-g1.pdn',
    ]);
    await sim.stop();

    sim = await recordingBoards({
      boards: 1,
      transport: 'memory',
      seed: 3,
      game: { ...GAME, occupancyOnly: true },
    });
    const occ = sim.boards[0];
    const line = hostOn(occ.stream!, 'line', () => {});
    await sim.done;
    await until(() => line.events.length >= occ.board.sent.length);
    expect(line.events.map(strip)).toEqual(occ.board.sent.map(strip));
    expect(line.events[0]).toMatchObject({ type: 'hello', senses: 'occupancy' });
    expect(
      line.events.filter((e) => e.type === 'put').every((e) => e.type === 'put' && e.piece === undefined),
    ).toBe(true);
    rmSync(dir, { recursive: true, force: true });
    await expect(
      startSimulation({ protocol: 'dgt', transport: 'memory', game: { occupancyOnly: true } }),
    ).rejects.toThrow(/line protocol/);
  });
});

describe('clock through the protocol', () => {
  it.each([
    ['dgt', ['ok']],
    ['line', []],
  ] as const)(
    "%s: the daemon sets a simulated board's clock; a DGT clock acknowledges SETNRUN at the first try",
    async (protocol, answers) => {
      sim = await startSimulation({ boards: 1, transport: 'tcp', protocol, speed: 1, seed: 4, idle: true });
      const source = parseSource(sim.boards[0].address);
      if (!source.ok) throw new Error(source.error.message);
      let active = false;
      const conn = new BoardConnection({
        source: sim.boards[0].address,
        ...boardTransport(source.value, { name: protocol }, {}),
        events: { onState: (state) => (active = state === 'active'), onEvents: () => {} },
      });
      try {
        conn.start();
        await until(() => active, 5000);
        expect(active).toBe(true);
        const outcome = await conn.setClock({
          type: 'set-clock',
          white: 85_000,
          black: 720_000,
          running: 'black',
        });
        expect(outcome).toEqual({ set: true, answers: [...answers] });
      } finally {
        conn.stop();
      }
    },
  );

  it('line boards announce caps=clock,history and send the running clock every second (PROTOCOL.md 1.8)', async () => {
    sim = await recordingBoards({
      boards: 1,
      transport: 'memory',
      speed: 1,
      seed: 9,
      game: { maxPlies: 4, thinkMs: 4000 },
    });
    const b = sim.boards[0];
    const host = hostOn(b.stream!, 'line', () => {});
    await until(() => host.events.filter((e) => e.type === 'clock').length >= 3, 6000);
    expect(host.events[0]).toMatchObject({
      type: 'hello',
      protocol: `damlink-line/${LINE_PROTOCOL_VERSION}`,
      capabilities: ['clock', 'history'],
    });
    expect((host.events[0] as { boot?: string }).boot).toMatch(/^[0-9a-f]{8}$/);
    const clocks = host.events.flatMap((e) => (e.type === 'clock' ? [e] : []));
    expect(clocks.length).toBeGreaterThanOrEqual(3);
    // White's clock runs down between the reports while nothing has been pressed.
    const running = clocks.filter((c) => c.running === 'white');
    expect(running.at(-1)!.white).toBeLessThan(running[0].white);
    expect(host.events.map(strip)).toEqual(b.board.sent.slice(0, host.events.length).map(strip));
  });

  it('boards do not send their clocks in step: each has its own phase within the second', async () => {
    const origin = Date.now();
    sim = await startSimulation({
      boards: 2,
      transport: 'memory',
      speed: 1,
      seed: 9,
      startNow: true,
      game: { maxPlies: 4, thinkMs: 4000 },
    });
    // The boards start somewhere between `origin` and now.
    const started = Date.now() - origin;
    const hosts = sim.boards.map((b) => hostOn(b.stream!, 'line', () => {}));
    const clocks = (h: Host) => h.events.filter((e) => e.type === 'clock');
    await until(() => hosts.every((h) => clocks(h).length >= 4), 6000);
    // How long after its phase in the second each clock line arrives (the median, past any
    // press's own report): the start's delay and a timer's lateness. The boards keep time with
    // performance.now and the host stamps lines with Date.now, scales a millisecond or so apart: a
    // line just before its phase is early by that much, not late by a second.
    const lateBy = (h: Host, phaseMs: number) => {
      const residues = clocks(h)
        .map((e) => ((((e.t - origin - phaseMs) % 1000) + 1500) % 1000) - 500)
        .sort((a, b) => a - b);
      return residues[residues.length >> 1];
    };
    // From the seed: board 1 at 946 ms into each second, board 2 at 865 ms. A loaded machine's
    // timers run late by tens of milliseconds.
    expect(lateBy(hosts[0], 946)).toBeLessThan(started + 150);
    expect(lateBy(hosts[1], 865)).toBeLessThan(started + 150);
    // Both boards start in the same turn: their phases stay 81 ms apart (in step, 81 ms off).
    const apart = (lateBy(hosts[1], 865) - lateBy(hosts[0], 946) + 1000) % 1000;
    expect(Math.min(apart, 1000 - apart)).toBeLessThan(55);
  });

  it('DGT changes+clock mode: the running clock every second on top of the presses; stopped at the end', async () => {
    sim = await recordingBoards({ boards: 1, transport: 'memory', protocol: 'dgt', seed: 6 });
    const b = sim.boards[0];
    const host = hostOn(b.stream!, 'dgt', () => {});
    host.send({ type: 'update-mode', mode: 'changes+clock' });
    await sim.done;
    const atEnd = host.events.filter((e) => e.type === 'clock').length;
    await until(() => host.events.filter((e) => e.type === 'clock').length >= atEnd + 2, 8000);
    const clocks = host.events.filter((e) => e.type === 'clock');
    expect(clocks.length - atEnd).toBeGreaterThanOrEqual(2);
    const truth = b.board.games[0].events.filter((e) => e.type === 'clock');
    expect(truth.at(-1)).toMatchObject({ running: null });
    expect(clocks.at(-1)).toMatchObject({ running: null });
    host.send({ type: 'reset' });
    await new Promise((r) => setTimeout(r, 50));
    const afterReset = host.events.length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(host.events.length).toBe(afterReset);
  });
});

describe('PTY reconnects', () => {
  it('the host closes the serial port and opens it again: the board still answers and plays on', async () => {
    sim = await recordingBoards({ boards: 1, transport: 'pty', speed: 40, seed: 3, game: { maxPlies: 30 } });
    const b = sim.boards[0];
    const open = async () => {
      const port = new SerialPort({ path: b.address, baudRate: 9600 });
      await new Promise<void>((resolve, reject) => {
        port.once('open', () => resolve());
        port.once('error', reject);
      });
      return { port, host: hostOn(port, 'line', () => port.close()) };
    };
    const first = await open();
    first.host.send({ type: 'identify' });
    await until(() => first.host.events.length > 10);
    await new Promise<void>((resolve) => first.port.close(() => resolve()));
    const second = await open();
    const from = b.board.sent.length;
    second.host.send({ type: 'snapshot' });
    await until(() => second.host.events.some((e) => e.type === 'lift'));
    const dump = second.host.events.find((e) => e.type === 'snapshot');
    const sentDump = b.board.sent.slice(from).find((e) => e.type === 'snapshot');
    expect(dump).toBeDefined();
    expect(dump && strip(dump)).toBe(sentDump && strip(sentDump));
    expect(second.host.events.some((e) => e.type === 'fault')).toBe(false);
    await new Promise<void>((resolve) => second.port.close(() => resolve()));
  });
});
