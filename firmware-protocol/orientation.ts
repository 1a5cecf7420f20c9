// A board may stand turned 180° (White's men on the physical squares 1–20). It is detected from the
// start position (rule 5.1) and then applied to every later event, until another start position says
// otherwise.
import { type BoardSize, rotateBoard, rotateSquare, startPosition } from './board-string.ts';

/** `auto` detects from the start position; `normal` / `rotated` fix it. */
export type OrientationSetting = 'auto' | 'normal' | 'rotated';

export class Orientation {
  private rotatedNow: boolean;
  private readonly start: string;
  private readonly startTurned: string;
  private readonly n: number;

  constructor(
    private readonly setting: OrientationSetting,
    size: BoardSize,
  ) {
    this.rotatedNow = setting === 'rotated';
    this.start = startPosition(size);
    this.startTurned = rotateBoard(this.start);
    this.n = this.start.length;
  }

  get rotated(): boolean {
    return this.rotatedNow;
  }

  /** Takes a physical picture (squares in the board's own numbering) and returns it in FMJD order. */
  board(physical: string): string {
    if (this.setting === 'auto' && physical.length === this.n) {
      if (physical === this.start) this.rotatedNow = false;
      else if (physical === this.startTurned) this.rotatedNow = true;
    }
    return this.rotatedNow ? rotateBoard(physical) : physical;
  }

  /** A physical square number → FMJD square (and back: the mapping is its own inverse). */
  square(physical: number): number {
    return this.rotatedNow ? rotateSquare(physical, this.n) : physical;
  }
}
