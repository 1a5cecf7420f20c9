// The simulator's long outage: a virtual board drops off after a clock press, the players play on,
// and it comes back with `hello` and a full dump — live over a transport, and on ground truth
// (simulator/outage.ts). The tracker follows the game through it.
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { Simulation } from '../../simulator/index.ts';
import { boardAt, outageOverPlies } from '../../simulator/outage.ts';
import { simulateGame } from '../../simulator/game.ts';
import { createTracker } from '../../src/tracker/index.ts';
import { verdictOf } from '../src/tracker/fixtures/truth.ts';
import { recordingBoards } from './fixtures/helpers.ts';

let sim: Simulation | undefined;
afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

const presses = (events: readonly BoardEvent[]) => events.filter((e) => e.type === 'press').length;

describe('a long outage', () => {
  it('live: nothing is sent for 6 plies after the 4th press, then hello and the board as it stands', async () => {
    sim = await recordingBoards({
      boards: 1,
      transport: 'memory',
      seed: 4,
      outage: { afterPly: 4, plies: 6 },
    });
    const b = sim.boards[0];
    b.stream!.on('data', () => {});
    await sim.done;
    const game = b.board.games[0];
    const sent = b.board.sent;
    expect(presses(sent)).toBe(game.moves.length - 6);
    const fourth = sent.findIndex((e, i) => e.type === 'press' && presses(sent.slice(0, i + 1)) === 4);
    const [hello, dump] = sent.slice(fourth + 1).filter((e) => e.type !== 'clock');
    expect(hello.type).toBe('hello');
    expect(dump).toMatchObject({ type: 'snapshot', board: boardAt(game.events, game.moves[9].t) });
  });

  it('on ground truth: a 3-ply outage; the tracker gives the played game (one line, or the gap alert)', () => {
    const game = simulateGame({ seed: 11, noise: 'realistic', maxPlies: 24 });
    const events = outageOverPlies(game, 8, 3)!;
    expect(presses(events)).toBe(game.moves.length - 3);
    const tracker = createTracker({ variant: game.variant, occupancyOnly: game.occupancyOnly });
    const outputs = events.flatMap((e) => tracker.push(e));
    outputs.push(...tracker.flush(events.at(-1)!.t + 5000));
    const verdict = verdictOf(outputs);
    const gap = outputs.find((o) => o.type === 'alert' && o.alert.rule === 'gap');
    const truth = game.moves.map((m) => m.pdn);
    if (gap?.type === 'alert') expect(gap.alert.candidates).toContainEqual(truth.slice(8, 11));
    else expect(verdict.moves).toEqual(truth);
    expect(tracker.state.moves.length).toBe(truth.length);
  });
});
