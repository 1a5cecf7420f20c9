// Types of board.js for the server, which draws the same pictures as the pages.
export interface BoardDrawing {
  fen: string;
  variant?: string;
  flipped?: boolean;
  move?: { path?: readonly number[]; from: number; to: number; captured?: readonly number[] } | null;
  marks?: number[];
  label?: string;
  numbers?: boolean;
  describedBy?: string;
}
export function boardSvg(o: BoardDrawing): string;
export function pictureSvg(o: BoardDrawing & { size?: number }): string;
