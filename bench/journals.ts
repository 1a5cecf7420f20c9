// Journals the benches start daemons on: rounds whose boards were searching for lost plies.
import { join } from 'node:path';
import { type AppendRequest, Journal } from '../daemon/journal/index.ts';
import type { BoardEvent } from '../firmware-protocol/events.ts';
import { legalMoves, play, Position } from '../src/engine/index.ts';
import { chooseMove } from '../simulator/selfplay.ts';
import { seededPlay } from '../test/src/tracker/fixtures/hands.ts';

/** A seeded game's events to a board shown 12 plies on after a reconnect, then `steps` granted ticks. */
function boardEvents(seed: number, base: number, steps: number): BoardEvent[] {
  const played = seededPlay(Position.initial(), seed, 10);
  const { rng, script: s } = played;
  let pos = played.end;
  for (let ply = 11; ply <= 22 && legalMoves(pos).length > 0; ply++)
    pos = play(pos, chooseMove(pos, ply, rng)!);
  s.wait(1000).hello().snapshot(pos.toBoardString());
  const events = s.events.map((e) => ({ ...e, t: base + e.t }));
  let t = events.at(-1)!.t;
  for (let i = 0; i < steps; i++) events.push({ t: (t += 100), type: 'tick', steps: 1 });
  return events;
}

/** The journal of `round`: `boards` boards searching for lost plies when the daemon stopped (killed: nothing kept); every round the same games. */
export function writeSearchingRound(dir: string, round: number, boards: number, steps: number): void {
  const journal = Journal.open(join(dir, 'journal.sqlite'));
  journal.setRoundSettings(round, { variant: 'international', drawProfile: 'fmjd' });
  const base = Date.parse('2026-07-12T10:00:00Z');
  for (let board = 1; board <= boards; board++) {
    const inputs: AppendRequest[] = [
      {
        round,
        board,
        t: base,
        serial: `SIM-${board}`,
        input: { kind: 'state', state: 'active', serial: `SIM-${board}` },
      },
    ];
    for (const event of boardEvents(board * 7 + 1, base, steps))
      inputs.push({ round, board, t: event.t, serial: `SIM-${board}`, input: { kind: 'event', event } });
    journal.appendMany(inputs);
  }
  journal.close();
}
