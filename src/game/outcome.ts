// A game's result: the one written (by the arbiter, an action, or at once where results are
// automatic), the one proposed for the arbiter to confirm (the rules, a flag, the board's gesture),
// the side with the advantage in a 6.5 draw, and the ply the game ended at.
import type { Side } from '../../firmware-protocol/side.ts';
import { type GameEnd, gameEnd } from './end.ts';
import type { Emit } from './event-log.ts';
import type { PlayedLine } from './line.ts';
import type { GameResult, GameSnapshot } from './types.ts';

type Proposal = NonNullable<GameSnapshot['proposedResult']>;

/** What a `result` event says after a change: the result, its advantage, the proposal pending. */
interface ResultChange {
  result: GameResult;
  advantage?: Side;
  proposed?: Proposal;
}

export class Outcome {
  result: GameResult = '*';
  advantage: Side | undefined;
  proposed: Proposal | undefined;
  /** The last ply of the game once a result is written, and when it was written. */
  ply: number | undefined;
  at: number | undefined;

  constructor(
    /** Write the result the engine proposes at once instead of waiting for the arbiter. */
    private readonly automatic: boolean,
    /** 6.5 draws carry the side that had the advantage. */
    private readonly advantageDraws: boolean,
    private readonly line: PlayedLine,
    private readonly emit: Emit,
    private readonly record: {
      /** What the board shows stands (a result is written). */
      stand(t: number): void;
      /** The game on the board is played after the table's game: its result is not the table's. */
      afterGame(): boolean;
    },
  ) {}

  get open(): boolean {
    return this.result === '*';
  }

  /** The side of advantage a written `result` keeps (a draw, where 6.5 applies). */
  sideFor(result: GameResult, advantage: Side | undefined): Side | undefined {
    return result === '1-1' && this.advantageDraws ? advantage : undefined;
  }

  /** The arbiter writes `result` (`*` clears it). */
  write(result: GameResult, advantage: Side | undefined, t: number): void {
    const side = this.sideFor(result, advantage);
    if (result === this.result && side === this.advantage && !this.proposed) return;
    this.set(result, side, t);
    this.said({ result, ...(side ? { advantage: side } : {}) }, t);
  }

  /** After a change of position: propose (or write) the result when the game is over. */
  review(t: number, positionChanged: boolean): void {
    if (!this.open) return;
    const end = gameEnd(this.line.state);
    if (end) this.propose(end, t);
    else if (positionChanged && this.proposed) {
      this.proposed = undefined;
      this.said({ result: this.result }, t);
    }
  }

  /**
   * The game is over by `end`: proposed to the arbiter, or written where results are automatic.
   * Nothing changes when a result is written already or the same proposal stands.
   */
  propose(end: GameEnd, t: number): void {
    if (!this.open) return;
    const advantage = end.advantage ? { advantage: end.advantage } : {};
    if (this.automatic) {
      this.set(end.result, end.advantage, t);
      this.said({ result: end.result, ...advantage }, t);
    } else if (this.proposed?.result !== end.result || this.proposed.reason !== end.reason) {
      this.proposed = { result: end.result, reason: end.reason, ...advantage };
      this.said({ result: this.result, proposed: { ...this.proposed } }, t);
    }
  }

  reset(): void {
    this.set('*', undefined, undefined);
  }

  private set(result: GameResult, advantage: Side | undefined, t: number | undefined): void {
    this.result = result;
    this.advantage = advantage;
    this.proposed = undefined;
    this.ply = result === '*' ? undefined : this.line.lastPly;
    this.at = result === '*' ? undefined : t;
  }

  /** A result changed: a result written makes what the board shows stand, before it is said. */
  private said(change: ResultChange, t: number): void {
    if (change.result !== '*' && !change.proposed) this.record.stand(t);
    this.emit(t, {
      kind: 'result',
      ...change,
      ...(this.record.afterGame() ? { afterGame: true as const } : {}),
    });
  }
}
