// A board's sensor events in a time range, read back from the journal for the dispute view.
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { Journal } from '../journal/index.ts';

/** The board's journaled sensor events of `round` with `from ≤ t ≤ to`, at most `limit`. */
export function sensorEvents(
  journal: Journal,
  round: number,
  board: number,
  range: { from: number; to: number; limit: number },
): BoardEvent[] {
  const found: BoardEvent[] = [];
  journal.forEachRoundInput(
    round,
    (_board, input) => {
      if (input.kind !== 'event' || found.length >= range.limit) return;
      if (input.event.t >= range.from && input.event.t <= range.to) found.push(input.event);
    },
    { board },
  );
  return found;
}
