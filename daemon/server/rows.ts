// The board list as HTTP `/api/v1/boards` and the WebSocket `boards` call show it (docs/api.md).
import type { GameResult, GameSnapshot } from '../../src/game/types.ts';
import type { BoardSummary, HubReader } from '../hub.ts';

export interface BoardRow extends BoardSummary {
  white?: string;
  black?: string;
  result: GameResult;
  moves: number;
  fen?: string;
  proposedResult: GameSnapshot['proposedResult'] | null;
  openAlerts: number;
}

/** The rows; `arbiter` adds what only the arbiter sees (a link that cannot be opened, and why). */
export function boardRows(hub: HubReader, arbiter = false): { round: number; boards: BoardRow[] } {
  const boards = hub.boards().map(({ openProblem, ...summary }): BoardRow => {
    const snap = hub.snapshot(summary.board);
    return {
      ...summary,
      ...(arbiter && openProblem !== undefined ? { openProblem } : {}),
      white: snap?.info.white,
      black: snap?.info.black,
      result: snap?.result ?? '*',
      moves: snap?.moves.length ?? 0,
      fen: snap?.fen,
      proposedResult: snap?.proposedResult ?? null,
      openAlerts: snap?.alerts.filter((a) => !a.decision).length ?? 0,
    };
  });
  return { round: hub.round(), boards };
}
