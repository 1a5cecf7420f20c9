// Which board a serial number belongs to, so a board's game stays with the board when it is
// plugged into another port. Remembered in the journal for the round.
import type { BoardSetup } from '../config/index.ts';
import type { Journal } from '../journal/index.ts';

export class SerialBindings {
  private readonly known: Map<string, number>;

  constructor(
    private readonly journal: Journal,
    private readonly round: number,
    private readonly setups: readonly BoardSetup[],
    /** Whether the round has this board. */
    private readonly has: (board: number) => boolean,
  ) {
    this.known = journal.bindings(round);
  }

  /** The board `serial` belongs to: remembered, configured, or the board of the source it came on. */
  boardOf(setup: BoardSetup, serial: string): number {
    const known = this.known.get(serial);
    if (known !== undefined && this.has(known)) return known;
    const configured = this.setups.find((s) => s.serial === serial);
    const board = configured?.board ?? setup.board;
    this.known.set(serial, board);
    try {
      this.journal.bind(this.round, serial, board);
    } catch {
      // The journal cannot write (its health says so): the binding holds for this run, and a
      // restart finds the board by its configured serial or its source again.
    }
    return board;
  }
}
