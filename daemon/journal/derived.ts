// Which game outputs the journal keeps as rows of their own (`derived`), and in what form: the
// record of the game a person or a tool reads from the file — moves, alerts, decisions, results —
// not the clocks and connection states that come and go every second.
import type { GameEvent } from '../../src/game/types.ts';
import type { DerivedRecord } from './index.ts';

const KINDS: ReadonlySet<GameEvent['kind']> = new Set([
  'move',
  'takeback',
  'new-game',
  'alert',
  'decision',
  'position-set',
  'result',
  'table-game',
  'continued',
]);

/** The row for `event`, or undefined when the event is not kept. */
export function derivedRecord(round: number, event: GameEvent): DerivedRecord | undefined {
  if (!KINDS.has(event.kind)) return undefined;
  const { board, version, t, kind, ...data } = event;
  // A new game's snapshot is the whole game again: its start position is what is new.
  // The table's game kept aside: what changed in it is its result.
  const kept =
    event.kind === 'new-game'
      ? { startFen: event.snapshot.startFen }
      : event.kind === 'table-game'
        ? {
            result: event.game?.result ?? null,
            ...(event.game?.advantage ? { advantage: event.game.advantage } : {}),
          }
        : data;
  return { round, board, version, t, kind, data: kept };
}
