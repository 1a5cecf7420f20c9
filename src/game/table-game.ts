// The table's game kept aside when the pieces were set up again after it: the game the pairing
// counts, whose result and names the arbiter may still write while another is played on the board
// (GameSnapshot.tableGame). Each change replaces the snapshot kept.
import type { Side } from '../../firmware-protocol/side.ts';
import type { ActionRecord } from './actions.ts';
import type { Emit } from './event-log.ts';
import type { GameInfo, GameResult, GameSnapshot } from './types.ts';

/** A game over: a result written, or one proposed (the rules, a flag, the board's result gesture). */
const isFinished = (game: GameSnapshot): boolean => game.result !== '*' || game.proposedResult !== undefined;

export class TableGame {
  game: GameSnapshot | undefined;

  constructor(private readonly emit: Emit) {}

  /**
   * A new game starts on the board after `played`: it is the table's when it is the first one with
   * a move, or longer than an unfinished one kept (a game restarted).
   */
  offer(played: GameSnapshot): void {
    if ((played.moves.length > 0 || played.result !== '*') && this.givesWay(played.moves.length))
      this.game = played;
  }

  /** The game on the board, `moves` long, outgrew an unfinished one kept: it is the table's again. */
  outgrown(moves: number, t: number): void {
    if (this.game && this.givesWay(moves)) this.change(undefined, t);
  }

  /** The arbiter writes the kept game's result (`side`: the advantage it keeps). */
  write(result: GameResult, side: Side | undefined, t: number): void {
    const kept = this.game!;
    if (result === kept.result && side === kept.advantage && !kept.proposedResult) return;
    const { advantage: _a, proposedResult: _p, resultPly: _r, resultT: _t, ...rest } = kept;
    const ended = result !== '*' ? { resultPly: kept.moves.at(-1)?.ply ?? 0, resultT: t } : {};
    this.change({ ...rest, result, ...(side ? { advantage: side } : {}), ...ended }, t);
  }

  /** A resignation or an agreed draw entered for the kept game: none once its result is written. */
  act(action: Omit<ActionRecord, 'ply'>, result: GameResult): void {
    const kept = this.game!;
    if (kept.result !== '*') return;
    const record: ActionRecord = { ...action, ply: kept.moves.at(-1)?.ply ?? 0 };
    this.game = { ...kept, actions: [...(kept.actions ?? []), record] };
    this.write(result, undefined, action.t);
  }

  /** The table's players and event, whichever of its games is on the board. */
  rename(info: Partial<GameInfo>, board: number, t: number): void {
    const kept = this.game!;
    this.change({ ...kept, info: { ...kept.info, ...info, board } }, t);
  }

  private change(game: GameSnapshot | undefined, t: number): void {
    this.game = game;
    this.emit(t, { kind: 'table-game', game: game ?? null });
  }

  private givesWay(moves: number): boolean {
    return !this.game || (!isFinished(this.game) && moves > this.game.moves.length);
  }
}
