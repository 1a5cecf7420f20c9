// Where a board that remembers is to be asked from when it comes back: for a history board (line
// protocol 1.1) the number of the last of its changes the journal holds, within one power-up of the
// board; for a DGT board, whose record (EE_MOVES) numbers nothing, the last changes themselves, to
// find them in its record. Kept as inputs are taken, live and replayed alike.
import { changeStamp } from '../../firmware-protocol/board-string.ts';
import type { BoardMemory } from '../../firmware-protocol/descriptor.ts';
import type { BoardEvent, HelloEvent } from '../../firmware-protocol/events.ts';
import { type Change, type ResumeAsk, TAIL } from './catch-up.ts';

export interface ResumePoint {
  serial: string;
  /** History boards: the power-up the numbers belong to. */
  boot?: string;
  /** History boards: the number of the last change stored; undefined until one of this boot is. */
  n?: number;
  /** History boards: the board's time (ms since power-up) of that change. */
  ms?: number;
  /** The last changes stored, oldest first. */
  tail: readonly Change[];
}

/** The resume point after `event` (from the board `serial`) was stored. */
export function resumeAfter(
  point: ResumePoint | undefined,
  event: BoardEvent,
  serial: string | undefined,
): ResumePoint | undefined {
  if (event.type === 'hello') {
    // Another board, or another power-up of a history board: nothing stored is of it.
    if (point?.serial === event.serial && point.boot === event.boot) return point;
    return { serial: event.serial, ...(event.boot ? { boot: event.boot } : {}), tail: [] };
  }
  if (!point || (serial !== undefined && serial !== point.serial)) return point;
  if (event.type !== 'lift' && event.type !== 'put' && event.type !== 'press') return point;
  const stamp = changeStamp(event);
  const newer = stamp !== undefined && (point.n === undefined || stamp.n > point.n);
  const numbered = newer ? { n: stamp.n, ms: stamp.ms } : {};
  if (event.type === 'press') return newer ? { ...point, ...numbered } : point;
  const change: Change = { type: event.type, square: event.square };
  if (event.type === 'put' && event.piece) change.piece = event.piece;
  return { ...point, ...numbered, tail: [...point.tail.slice(1 - TAIL), change] };
}

/**
 * What to ask the board `serial` that greets with `hello` and remembers as its protocol says
 * (`memory`); undefined: nothing stored to go on.
 */
export function resumeFrom(
  point: ResumePoint | undefined,
  serial: string,
  hello: HelloEvent,
  memory: BoardMemory,
): ResumeAsk | undefined {
  if (point?.serial !== serial || memory === 'none') return undefined;
  if (memory === 'tail') return point.tail.length > 0 ? { tail: point.tail } : undefined;
  if (!hello.boot || point.boot !== hello.boot || point.n === undefined) return undefined;
  return { after: point.n, ...(point.ms !== undefined ? { since: point.ms } : {}) };
}
