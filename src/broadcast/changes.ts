// Which of a board's events change what is published of its game (its PDN and the round's files),
// so that a round is made again only for those: most of a hall's events are clock readings, and a
// reading changes the published game only when it gives the move just made its clock.
import { moverOf } from '../game/line.ts';
import type { GameEvent, GameSnapshot } from '../game/types.ts';
import type { Side } from '../../firmware-protocol/side.ts';

/** What a published game never reads: the connection, and what the board's clock did with a setting. */
const UNPUBLISHED: ReadonlySet<GameEvent['kind']> = new Set(['state', 'clock-command', 'clock-set']);

/** A board as publishing knows it: its published version, and the mover whose move waits for its clock. */
interface Known {
  version: number;
  /** 'unknown' after a takeback or a position set up: the last move left is not known here. */
  waiting?: Side | 'unknown';
}

/**
 * Per board of a round: the version of the last event that changed its published game, and whether
 * its last move still waits for its clock (`PlayedLine.clockAfterMove`: the first reading on which
 * the mover's clock no longer runs). A board is learnt from its snapshot; until then, every one of
 * its events counts.
 */
export class PublishedChanges {
  /** By round and board (`3/12`). */
  private readonly boards = new Map<string, Known>();

  /** Whether `event`, of a board of `round`, changes its published game. */
  touches(event: GameEvent, round: number): boolean {
    const known = this.boards.get(`${round}/${event.board}`);
    if (!known) return true;
    const touched = changes(known, event);
    if (touched) known.version = event.version;
    return touched;
  }

  /**
   * The version of `game` as published: its own, unless only events that change nothing published
   * came since the last one that did.
   */
  versionOf(game: GameSnapshot): number {
    const key = `${game.info.round}/${game.info.board}`;
    const known = this.boards.get(key);
    if (known && known.version <= game.version) return known.version;
    const last = game.moves.at(-1);
    this.boards.set(key, {
      version: game.version,
      ...(last && !last.clock ? { waiting: moverOf(last) } : {}),
    });
    return game.version;
  }
}

function changes(known: Known, event: GameEvent): boolean {
  if (UNPUBLISHED.has(event.kind)) return false;
  switch (event.kind) {
    case 'clock':
      if (known.waiting === undefined) return false;
      // The last move left by a takeback: readings count until the next move.
      if (known.waiting === 'unknown') return true;
      if (event.running === known.waiting) return false;
      known.waiting = undefined;
      return true;
    case 'move':
      known.waiting = event.move.clock ? undefined : moverOf(event.move);
      return true;
    case 'new-game':
      known.waiting = undefined;
      return true;
    case 'takeback':
    case 'position-set':
      known.waiting = 'unknown';
      return true;
    default:
      return true;
  }
}
