// Shared by the simulator tests: replaying sensor events onto a board, splitting a game per move.
import type { BoardEvent } from '../../firmware-protocol/events.ts';

/** The board string after `events` (from the last snapshot on); throws on a physically impossible event. */
export function boardAfter(events: readonly BoardEvent[], start = ''): string {
  const cells = [...start];
  for (const e of events) {
    if (e.type === 'lift') {
      if (cells[e.square - 1] === '.') throw new Error(`lift from empty ${e.square} at ${e.t}`);
      cells[e.square - 1] = '.';
    } else if (e.type === 'put') {
      if (cells[e.square - 1] !== '.') throw new Error(`put on occupied ${e.square} at ${e.t}`);
      cells[e.square - 1] = e.piece ?? 'o';
    } else if (e.type === 'snapshot') cells.splice(0, cells.length, ...e.board);
  }
  return cells.join('');
}

/** The events of each pressed move: everything after the previous press up to and including this one. */
export function splitAtPresses(events: readonly BoardEvent[]): BoardEvent[][] {
  const out: BoardEvent[][] = [[]];
  for (const e of events) {
    out[out.length - 1].push(e);
    if (e.type === 'press') out.push([]);
  }
  return out;
}

export const lifts = (events: readonly BoardEvent[]): number[] =>
  events.flatMap((e) => (e.type === 'lift' ? [e.square] : []));
export const puts = (events: readonly BoardEvent[]): number[] =>
  events.flatMap((e) => (e.type === 'put' ? [e.square] : []));
