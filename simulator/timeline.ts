// The physical board as the simulated hands change it, and the sensor events that change produces.
// Keeps the board consistent (no lift from an empty square, no put on an occupied one), so every
// generated stream is one a real board could have sent.
import type { BoardEvent, PieceCode, Side } from '../firmware-protocol/events.ts';

export class Timeline {
  /** Current time (ms). Only moves forward. */
  t: number;
  readonly events: BoardEvent[] = [];
  /** Index = square (1-based); undefined = empty. */
  private readonly cells: (PieceCode | undefined)[];

  constructor(
    startT: number,
    board: string,
    private readonly occupancyOnly: boolean,
  ) {
    this.t = startT;
    this.cells = [undefined, ...[...board].map(cellOf)];
  }

  get squareCount(): number {
    return this.cells.length - 1;
  }

  /** Everything needed to undo what happens next (an injection that turns out not to fit). */
  checkpoint(): { t: number; events: number; cells: (PieceCode | undefined)[] } {
    return { t: this.t, events: this.events.length, cells: [...this.cells] };
  }

  restore(c: { t: number; events: number; cells: (PieceCode | undefined)[] }): void {
    this.t = c.t;
    this.events.length = c.events;
    this.cells.splice(0, this.cells.length, ...c.cells);
  }

  wait(ms: number): this {
    this.t += Math.max(0, Math.round(ms));
    return this;
  }

  pieceAt(square: number): PieceCode | undefined {
    return this.cells[square];
  }

  /** Takes the piece off `square`; returns it (the hand now holds it). */
  lift(square: number): PieceCode {
    const p = this.cells[square];
    if (!p) throw new Error(`simulator bug: lift from empty square ${square} at t=${this.t}`);
    this.cells[square] = undefined;
    this.events.push({ t: this.t, type: 'lift', square });
    return p;
  }

  put(square: number, piece: PieceCode): void {
    if (this.cells[square]) throw new Error(`simulator bug: put on occupied square ${square} at t=${this.t}`);
    this.cells[square] = piece;
    this.events.push(
      this.occupancyOnly ? { t: this.t, type: 'put', square } : { t: this.t, type: 'put', square, piece },
    );
  }

  press(side: Side): void {
    this.events.push({ t: this.t, type: 'press', side });
  }

  fault(code: string, message: string): void {
    this.events.push({ t: this.t, type: 'fault', code, message });
  }

  clock(white: number, black: number, running: Side | null): void {
    this.events.push({ t: this.t, type: 'clock', white, black, running });
  }

  /** The pieces really on the board (whatever the sensors can tell). */
  trueBoardString(): string {
    let s = '';
    for (let i = 1; i < this.cells.length; i++) s += this.cells[i] ?? '.';
    return s;
  }

  /** The board as the sensors see it: `w b W B .`, or `o` for any piece on occupancy-only boards. */
  boardString(): string {
    let s = '';
    for (let i = 1; i < this.cells.length; i++) {
      const p = this.cells[i];
      s += p ? (this.occupancyOnly ? 'o' : p) : '.';
    }
    return s;
  }

  snapshot(board = this.boardString()): void {
    this.events.push({ t: this.t, type: 'snapshot', board });
  }

  /** Replaces the whole board at once (a set-up between games); emits nothing. */
  setBoard(board: string): void {
    for (let i = 1; i < this.cells.length; i++) {
      const c = board[i - 1];
      this.cells[i] = cellOf(c);
    }
  }
}

/** A board-string character as a cell. `o` (a piece the sensors cannot name) is kept as a white man:
 * only its presence matters, and the simulator never reads its colour. */
const cellOf = (c: string): PieceCode | undefined =>
  c === '.' ? undefined : c === 'o' ? 'w' : (c as PieceCode);
