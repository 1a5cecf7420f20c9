// Where a history board (line protocol 1.1) is to be asked from: the last of its changes the journal
// holds, within one power-up of the board. Kept as inputs are taken, live and replayed alike.
import { changeStamp } from '../../firmware-protocol/board.ts';
import type { BoardEvent } from '../../firmware-protocol/events.ts';

export interface ResumePoint {
  serial: string;
  boot: string;
  /** The number of the last change stored; undefined until one of this boot is. */
  n?: number;
}

/** The resume point after `event` (from the board `serial`) was stored. */
export function resumeAfter(
  point: ResumePoint | undefined,
  event: BoardEvent,
  serial: string | undefined,
): ResumePoint | undefined {
  if (event.type === 'hello') {
    if (!event.boot) return undefined;
    return point?.serial === event.serial && point.boot === event.boot
      ? point
      : { serial: event.serial, boot: event.boot };
  }
  const stamp = changeStamp(event);
  if (!stamp || !point || (serial !== undefined && serial !== point.serial)) return point;
  return point.n === undefined || stamp.n > point.n ? { ...point, n: stamp.n } : point;
}

/** The change to ask after, when the board `serial` greets in power-up `boot`. */
export const resumeFrom = (
  point: ResumePoint | undefined,
  serial: string,
  boot: string,
): number | undefined => (point?.serial === serial && point.boot === boot ? point.n : undefined);
