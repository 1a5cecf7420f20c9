import { mkdtempSync } from 'node:fs';
import Database from 'better-sqlite3';
import pino from 'pino';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import { loadConfig } from '../../daemon/config/index.ts';
import { Controller, type ControllerOptions } from '../../daemon/controller.ts';
import { createTracker } from '../../src/tracker/index.ts';
import type { TrackerFactory } from '../../src/game/board-game.ts';
import { Journal } from '../../daemon/journal/index.ts';
import { type RoundHub, RoundSwitch } from '../../daemon/tournament/round-switch.ts';
import type { GameEvent } from '../../src/game/types.ts';
import { FakeBoard } from './fixtures/fake-board.ts';
import { derived, entries } from './fixtures/journal-rows.ts';
import { createToyTracker } from './fixtures/toy-tracker.ts';
import { TIMING, until } from './fixtures/controller-timing.ts';
import { LateWriter } from './fixtures/late-writer.ts';

const cleanups: (() => Promise<void> | void)[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function board(serial: string, port = 0): Promise<FakeBoard> {
  const b = new FakeBoard(serial);
  await b.listen(port);
  cleanups.push(() => b.close());
  return b;
}

function controller(
  journalPath: string,
  sources: string[],
  createTracker: TrackerFactory = createToyTracker,
  extra: Record<string, unknown> = {},
  options: Partial<ControllerOptions> = {},
) {
  const config = loadConfig({ flags: { boards: sources }, env: { DAMLINK_EVENT: 'Test Open' } });
  if (!config.ok) throw new Error(config.error.join('\n'));
  const journal = Journal.open(journalPath);
  const c = new Controller({
    config: { ...config.value, ...extra },
    journal,
    createTracker,
    timing: TIMING,
    tickMs: 20,
    ...options,
  });
  const events: GameEvent[] = [];
  c.subscribe((e) => events.push(e));
  cleanups.push(() => {
    c.stop();
    journal.close();
  });
  return { c, events, journal };
}

/** A controller on a fake board that has played these moves (lift, put, recorded) one by one. */
async function playMoves(path: string, serial: string, moves: [number, number, 'w' | 'b'][]) {
  const b = await board(serial);
  const first = controller(path, [`tcp://127.0.0.1:${b.port}`]);
  first.c.start();
  await until(() => first.c.boards()[0].state === 'active');
  for (const [from, to, piece] of moves) {
    b.send({ t: 0, type: 'lift', square: from });
    b.send({ t: 0, type: 'put', square: to, piece });
    await until(() => first.c.snapshot(1)!.moves.at(-1)?.to === to);
  }
  return { b, first };
}

const tmpJournal = (): string => join(mkdtempSync(join(tmpdir(), 'damlink-ctl-')), 'journal.sqlite');

describe('controller', () => {
  it('journals each board event before the tracker sees it, and publishes the move', async () => {
    const path = tmpJournal();
    const b = await board('S-1');
    let journal: Journal | undefined;
    const journaledBeforePush: boolean[] = [];
    const spy: TrackerFactory = (o) => {
      const inner = createToyTracker(o);
      return {
        ...inner,
        get state() {
          return inner.state;
        },
        push(event: BoardEvent) {
          // Board events are journaled first; the daemon's own ticks only when they decide something.
          if (event.type === 'tick') return inner.push(event);
          const text = JSON.stringify(event);
          journaledBeforePush.push(
            entries(journal!, 1, 1).some(
              (e) => e.input.kind === 'event' && JSON.stringify(e.input.event) === text,
            ),
          );
          return inner.push(event);
        },
      };
    };
    const ctl = controller(path, [`tcp://127.0.0.1:${b.port}`], spy);
    journal = ctl.journal;
    ctl.c.start();
    await until(() => ctl.c.boards()[0].state === 'active');
    b.send({ t: 0, type: 'lift', square: 32 });
    b.send({ t: 0, type: 'put', square: 28, piece: 'w' });
    await until(() => ctl.events.some((e) => e.kind === 'move'));
    const move = ctl.events.find((e) => e.kind === 'move');
    expect(move).toMatchObject({ board: 1, move: { pdn: '32-28' } });
    expect(journaledBeforePush.length).toBeGreaterThan(3);
    expect(journaledBeforePush.every(Boolean)).toBe(true);
    expect(ctl.c.boards()[0]).toMatchObject({ board: 1, serial: 'S-1', state: 'active', round: 1 });
    const rows = entries(ctl.journal, 1, 1);
    // Exactly the tick that settled the move is journaled, so a replay settles it the same way.
    const ticks = rows.filter((e) => e.input.kind === 'event' && e.input.event.type === 'tick');
    expect(ticks.length).toBe(1);
    expect(ticks[0].t).toBe(move?.t);
    const lift = rows.find((e) => e.input.kind === 'event' && e.input.event.type === 'lift');
    expect(lift?.serial).toBe('S-1');
    expect(new TextDecoder().decode(lift?.raw)).toMatch(/^lift \d+ 32\*/);
  });

  it('rebuilds the same game, version included, from the journal alone', async () => {
    const path = tmpJournal();
    const { b, first } = await playMoves(path, 'S-2', [
      [32, 28, 'w'],
      [19, 23, 'b'],
      [28, 19, 'w'],
    ]);
    await first.c.decide(1, { alertId: 'none', kind: 'stands' });
    await first.c.setInfo(1, { white: 'Ann', black: 'Bob' });
    await first.c.setResult(1, '1-1');
    first.c.stop();
    const before = first.c.snapshot(1)!;
    expect(before.moves.map((m) => m.pdn)).toEqual(['32-28', '19-23', '28x19']);
    // The games as the daemon stopped with them are kept, equal to the journal's replay: once the
    // round is past, they are what is served.
    expect(first.journal.roundGames(1)).toEqual([before]);
    const second = controller(path, [`tcp://127.0.0.1:${b.port}`]);
    const after = second.c.snapshot(1)!;
    // The same game; the start reopened the board's link, so it is connecting until the board speaks.
    expect(before.state).toBe('active');
    expect(after).toEqual({ ...before, state: 'connecting', version: before.version + 1 });
    expect(after.info).toMatchObject({ white: 'Ann', black: 'Bob', event: 'Test Open' });
    expect(after.result).toBe('1-1');
    expect(second.c.since(1, before.version)).toMatchObject([{ kind: 'state', state: 'connecting' }]);
    expect(second.c.boards().map((s) => s.state)).toEqual(['connecting']);
  });

  it('stores moves, alerts and results as rows; a restart stores those a crash kept out, once', async () => {
    const path = tmpJournal();
    const { b, first } = await playMoves(path, 'S-D', [
      [32, 28, 'w'],
      [19, 23, 'b'],
    ]);
    await first.c.setResult(1, '2-0');
    first.c.stop();
    const rows = (j: Journal) => derived(j, 1, 1).map((r) => [r.kind, r.version]);
    const stored = derived(first.journal, 1, 1);
    expect(
      stored.filter((r) => r.kind === 'move').map((r) => (r.data as { move: { pdn: string } }).move.pdn),
    ).toEqual(['32-28', '19-23']);
    expect(stored.find((r) => r.kind === 'result')).toMatchObject({ data: { result: '2-0' } });
    const all = rows(first.journal);
    first.journal.close();
    // A crash between the inputs' commit and the outputs' commit: the result row never made it.
    const db = new Database(path);
    db.prepare("DELETE FROM derived WHERE kind = 'result'").run();
    db.close();
    const second = controller(path, [`tcp://127.0.0.1:${b.port}`]);
    second.c.stop();
    expect(rows(second.journal)).toEqual(all);
  });

  it('a stop keeps each board’s image; the next start restores it and replays nothing', async () => {
    const path = tmpJournal();
    const b = await board('S-IMG');
    const first = controller(path, [`tcp://127.0.0.1:${b.port}`], createTracker);
    first.c.start();
    await until(
      () => first.c.boards()[0].state === 'active' && b.commands.some((c) => c.type === 'snapshot'),
    );
    await sleep(100);
    b.send({ t: 0, type: 'lift', square: 32 });
    b.send({ t: 0, type: 'put', square: 28, piece: 'w' });
    await until(() => first.c.snapshot(1)!.moves.length === 1);
    first.c.stop();
    const played = first.c.snapshot(1)!;
    const db = new Database(path, { readonly: true });
    const images = db.prepare('SELECT board, through FROM board_images WHERE round = 1').all();
    const last = (db.prepare('SELECT MAX(id) AS id FROM journal').get() as { id: number }).id;
    db.close();
    expect(images).toEqual([{ board: 1, through: last }]);
    first.journal.close();
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const second = controller(path, [`tcp://127.0.0.1:${b.port}`], createTracker, {}, { logger });
    const rebuilt = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'games rebuilt from the journal');
    expect(rebuilt).toMatchObject({ boards: 1, restored: 1 });
    const again = second.c.snapshot(1)!;
    expect(again.moves).toEqual(played.moves);
    expect(again.fen).toBe(played.fen);
    // Closed for another round of this daemon: no image is taken (the next round's start drops them).
    const clear = new Database(path);
    clear.prepare('DELETE FROM board_images').run();
    clear.close();
    second.c.stop(true);
    const afterSwitch = new Database(path, { readonly: true });
    expect(afterSwitch.prepare('SELECT COUNT(*) AS n FROM board_images').get()).toEqual({ n: 0 });
    afterSwitch.close();
    // The round switch closes the round it leaves so.
    const stops: (boolean | undefined)[] = [];
    const hub = (round: number) =>
      ({
        round: () => round,
        subscribe: () => () => {},
        journalHealth: () => ({ ok: true, behind: 0, bound: 1 }),
        start: () => {},
        stop: (switching?: boolean) => {
          stops.push(switching);
          return 0;
        },
      }) as unknown as RoundHub;
    const rounds = new RoundSwitch({ first: hub(1), create: hub });
    await rounds.setRound(2);
    rounds.stop();
    expect(stops).toEqual([true, undefined]);
    // The toy tracker keeps its state in closures: no image of it, its board is replayed.
    const toyPath = tmpJournal();
    const { first: toy } = await playMoves(toyPath, 'S-TOY', [[32, 28, 'w']]);
    toy.c.stop();
    const toyDb = new Database(toyPath, { readonly: true });
    expect(toyDb.prepare('SELECT COUNT(*) AS n FROM board_images').get()).toEqual({ n: 0 });
    toyDb.close();
  });

  it('after the daemon was held up, reads what the board sent meanwhile before letting time pass', async () => {
    const b = await board('S-P');
    // 10× board time: the 600 ms hold-up below is 6 s for the tracker, past its 4 s stall time.
    const ctl = controller(tmpJournal(), [`tcp://127.0.0.1:${b.port}`], createTracker, {}, { timeScale: 10 });
    ctl.c.start();
    // The board has answered the daemon's dump (a dump arriving later would undo the lift below).
    await until(() => ctl.c.boards()[0].state === 'active' && b.commands.some((c) => c.type === 'snapshot'));
    await new Promise((r) => setTimeout(r, 100));
    b.send({ t: 0, type: 'lift', square: 32 });
    await new Promise((r) => setTimeout(r, 100));
    // The man is put down at once, but the daemon is busy (a long GC, a slow disk) for 600 ms.
    b.send({ t: 0, type: 'put', square: 28, piece: 'w' });
    const until600 = Date.now() + 600;
    while (Date.now() < until600) {
      // held up
    }
    await until(() => ctl.c.snapshot(1)!.moves.length === 1).catch(() => {
      throw new Error(
        JSON.stringify(ctl.events.map((e) => [e.kind, e.t])) + JSON.stringify(ctl.c.snapshot(1)!.alerts),
      );
    });
    expect(ctl.c.snapshot(1)!.moves[0].pdn).toBe('32-28');
    await new Promise((r) => setTimeout(r, 200));
    expect(ctl.c.snapshot(1)!.alerts).toEqual([]);
  });

  it('judges the hands by when the bytes came, not by when a held-up daemon read them (5.4.13)', async () => {
    const b = await board('S-R');
    const relay = await LateWriter.relay(b.port);
    cleanups.push(() => relay.close());
    // 4× board time: the tracker's 1500 ms removal pause is 375 ms of wall time.
    const ctl = controller(
      tmpJournal(),
      [`tcp://127.0.0.1:${relay.port}`],
      createTracker,
      {},
      { timeScale: 4 },
    );
    ctl.c.start();
    await until(() => ctl.c.boards()[0].state === 'active' && b.commands.some((c) => c.type === 'snapshot'));
    await sleep(100);
    const plies = () => ctl.c.snapshot(1)!.moves.length;
    const failing = () =>
      JSON.stringify({
        moves: ctl.c.snapshot(1)!.moves.map((m) => m.pdn),
        alerts: ctl.c.snapshot(1)!.alerts,
      });
    const move = async (from: number, to: number, side: 'white' | 'black') => {
      const ply = plies();
      b.send({ t: 0, type: 'lift', square: from });
      await sleep(60);
      b.send({ t: 0, type: 'put', square: to, piece: side === 'white' ? 'w' : 'b' });
      await sleep(100);
      b.send({ t: 0, type: 'press', side });
      await until(() => plies() === ply + 1).catch(() => {
        throw new Error(failing());
      });
      await sleep(100);
    };
    await move(31, 27, 'white');
    await move(17, 21, 'black');
    await move(32, 28, 'white');
    // Black takes 27 and 28 (21x23), touching 32 on the way.
    b.send({ t: 0, type: 'lift', square: 21 });
    await sleep(40);
    b.send({ t: 0, type: 'put', square: 32, piece: 'b' });
    await sleep(40);
    b.send({ t: 0, type: 'lift', square: 32 });
    await sleep(40);
    b.send({ t: 0, type: 'put', square: 23, piece: 'b' });
    await sleep(60);
    // The first removal arrives near the end of a 450 ms hold-up of the daemon, the second 100 ms
    // after it (400 ms for the tracker), then the press. All from the relay's thread, in order, the
    // board meanwhile answering nothing (a pong of its own would come before them in its sequence).
    b.mute = true;
    relay.writeAfter(400, b.encode({ t: 0, type: 'lift', square: 27 }));
    relay.writeAfter(500, b.encode({ t: 0, type: 'lift', square: 28 }));
    relay.writeAfter(750, b.encode({ t: 0, type: 'press', side: 'black' }));
    const held = Date.now() + 450;
    while (Date.now() < held) {
      // held up
    }
    await until(() => plies() === 4).catch(() => {
      throw new Error(failing());
    });
    b.mute = false;
    expect(ctl.c.snapshot(1)!.moves.map((m) => m.pdn)).toEqual(['31-27', '17-21', '32-28', '21x23']);
    expect(ctl.c.snapshot(1)!.alerts).toEqual([]);
  });

  it('takes the decisions still due when the board time leaps past the tick window at once', async () => {
    const b = await board('S-W');
    let now = Date.now();
    const ctl = controller(
      tmpJournal(),
      [`tcp://127.0.0.1:${b.port}`],
      createTracker,
      {},
      { now: () => now },
    );
    ctl.c.start();
    await until(() => ctl.c.boards()[0].state === 'active' && b.commands.some((c) => c.type === 'snapshot'));
    b.send({ t: 0, type: 'lift', square: 32 });
    b.send({ t: 0, type: 'put', square: 28, piece: 'w' });
    // The put is journaled (so applied), and a few ticks at the same time went by.
    await until(() =>
      entries(ctl.journal, 1, 1).some((e) => e.input.kind === 'event' && e.input.event.type === 'put'),
    );
    await new Promise((r) => setTimeout(r, 100));
    // Nothing passed for the tracker yet (the settle window is open); then 7 s at once, past the
    // 6 s tick window: one tick still comes, and the move settles.
    expect(ctl.c.snapshot(1)!.moves).toEqual([]);
    now += 7000;
    await until(() => ctl.c.snapshot(1)!.moves.length === 1);
    expect(ctl.c.snapshot(1)!.moves[0].pdn).toBe('32-28');
  });

  it('keeps the game with the board when its serial turns up on another port', async () => {
    const path = tmpJournal();
    const b1 = await board('S-A');
    const b2 = await board('S-B');
    const ctl = controller(path, [`tcp://127.0.0.1:${b1.port}`, `tcp://127.0.0.1:${b2.port}`]);
    ctl.c.start();
    await until(() => ctl.c.boards().every((s) => s.state === 'active'));
    b1.send({ t: 0, type: 'lift', square: 32 });
    b1.send({ t: 0, type: 'put', square: 28, piece: 'w' });
    await until(() => ctl.c.snapshot(1)!.moves.length === 1);
    // Board S-A is unplugged and plugged into the port where S-B was.
    const port2 = b2.port;
    await b1.close();
    await b2.close();
    const moved = await board('S-A', port2);
    await until(
      () => ctl.c.boards()[0].state === 'active' && moved.commands.some((c) => c.type === 'snapshot'),
    );
    moved.send({ t: 0, type: 'lift', square: 19 });
    moved.send({ t: 0, type: 'put', square: 23, piece: 'b' });
    await until(() => ctl.c.snapshot(1)!.moves.length === 2);
    expect(ctl.c.snapshot(2)!.moves).toEqual([]);
    expect(ctl.c.snapshot(1)).toMatchObject({ serial: 'S-A', state: 'active' });
    expect(ctl.c.snapshot(2)!.state).toBe('lost');
  });

  it('resync asks the watched boards, all or one, for a full dump', async () => {
    const b1 = await board('S-R1');
    const ctl = controller(tmpJournal(), [`tcp://127.0.0.1:${b1.port}`, 'tcp://127.0.0.1:1']);
    ctl.c.start();
    const dumps = () => b1.commands.filter((c) => c.type === 'snapshot').length;
    await until(() => ctl.c.boards()[0].state === 'active' && dumps() > 0);
    const before = dumps();
    // Board 2 never connects: only board 1 can be asked.
    expect(ctl.c.resync()).toEqual([1]);
    await until(() => dumps() === before + 1);
    expect(ctl.c.resync(1)).toEqual([1]);
    await until(() => dumps() === before + 2);
    expect(ctl.c.resync(2)).toEqual([]);
    expect(ctl.c.resync(9)).toEqual([]);
  });

  it('serves past rounds from the journal and rejects calls for unknown boards', async () => {
    const path = tmpJournal();
    const one = controller(path, ['tcp://127.0.0.1:1']);
    await one.c.setInfo(1, { white: 'Round one' });
    one.c.stop();
    one.journal.close();
    const two = controller(path, ['tcp://127.0.0.1:1'], createToyTracker, { round: 2 });
    expect(two.c.round()).toBe(2);
    // The round's rules are journaled, so exports replay it with them.
    expect(two.journal.roundSettings(1)).toEqual({
      variant: 'international',
      drawProfile: { profile: 'fmjd', advantageDraw: false },
      autoResult: false,
    });
    expect(two.c.games(1).map((g) => g.info.white)).toEqual(['Round one']);
    expect(two.c.games(2).map((g) => g.info.round)).toEqual([2]);
    await expect(two.c.setResult(9, '2-0')).rejects.toThrow(/no board 9/);
  });
});

describe('input clock', () => {
  it('runs scaled, starts after the journal and never goes back', async () => {
    const { inputClock } = await import('../../daemon/hold-up-clock.ts');
    let wall = 1000;
    const clock = inputClock(10, 5000, () => wall);
    expect(clock()).toBe(5001);
    wall = 1100;
    expect(clock()).toBe(6001);
    wall = 900; // system clock stepped back
    expect(clock()).toBe(6001);
    expect(inputClock(1, 0, () => 42)()).toBe(42);
  });
});

describe('controller: setting a DGT clock (G.4, G.5)', () => {
  /** A controller on one DGT board, with a time control and Appendix G announced. */
  async function dgtHall(path: string, b: FakeBoard, logLines: string[] = []) {
    const config = loadConfig({ flags: { boards: [`tcp://127.0.0.1:${b.port}`] }, env: {} });
    if (!config.ok) throw new Error(config.error.join('\n'));
    const journal = Journal.open(path);
    const c = new Controller({
      config: {
        ...config.value,
        timeControl: '3600',
        quickplayFinish: true,
        setups: config.value.setups.map((s) => ({ ...s, protocol: { name: 'dgt' as const } })),
      },
      journal,
      createTracker,
      // Every try is answered: the wait is only there for a loaded machine.
      timing: { ...TIMING, clockAckMs: 3000, clockBackoffMs: 10 },
      tickMs: 20,
      logger: pino({ level: 'warn' }, { write: (line: string) => logLines.push(line) }),
    });
    const stop = () => {
      c.stop();
      journal.close();
    };
    cleanups.push(stop);
    c.start();
    await until(() => c.boards()[0].state === 'active');
    return { c, journal, stop };
  }

  it('a refused setting is tried 3 times, journaled with the answers, logged, kept over a restart', async () => {
    const path = tmpJournal();
    const b = new FakeBoard('04711', 'dgt');
    await b.listen();
    cleanups.push(() => b.close());
    const logLines: string[] = [];
    const first = await dgtHall(path, b, logLines);
    b.send({ t: 0, type: 'clock', white: 100_000, black: 590_000, running: 'white' });
    await until(() => first.c.snapshot(1)!.clock?.black === 590_000);

    b.clockAnswers = ['error', 'error', 'error'];
    const answer = await first.c.act(1, { type: 'increment', side: 'white' });
    expect(answer).toEqual({
      clock: { set: false, reason: 'refused', answers: ['error', 'error', 'error'] },
    });
    expect(b.commands.filter((cmd) => cmd.type === 'set-clock')).toHaveLength(3);
    await until(() => first.c.snapshot(1)!.clockCommand !== undefined);
    expect(first.c.snapshot(1)!.clockCommand).toMatchObject({ set: false, reason: 'refused' });
    const journaled = entries(first.journal, 1, 1).flatMap((e) =>
      e.input.kind === 'clock-command' ? [e.input] : [],
    );
    // What was asked (two minutes to Black) and what the clock answered to each try.
    expect(journaled).toEqual([
      {
        kind: 'clock-command',
        asked: { white: expect.any(Number), black: 710_000, running: 'white' },
        outcome: { set: false, reason: 'refused', answers: ['error', 'error', 'error'] },
      },
    ]);
    expect(logLines.some((l) => /set it by hand/.test(l) && /"reason":"refused"/.test(l))).toBe(true);

    // The clock is put in mode 23: the next setting is refused once, then taken.
    b.clockAnswers = ['error', 'ok'];
    const taken = await first.c.act(1, { type: 'claim', side: 'white', decision: 'reject' });
    expect(taken).toEqual({ clock: { set: true, answers: ['error', 'ok'] } });
    await until(() => first.c.snapshot(1)!.clockCommand?.set === true);

    first.stop();
    const again = await dgtHall(path, b);
    expect(again.c.snapshot(1)!.clockCommand).toMatchObject({ set: true });
  });
});
