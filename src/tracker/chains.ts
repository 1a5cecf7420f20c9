// Capture chains that are not necessarily legal moves: every sequence of jumps one piece can make,
// stopping anywhere, without the maximum-capture rule. The tracker reads a player's irregular
// capture from them (5.4.8 fewer pieces than possible, 5.4.9 stopping in the middle).
import { geometry, type Move, type Position } from '../engine/index.ts';
import { isWhiteCode, pieceOfCode } from './sensed-codes.ts';

/** Every capture chain (≥ 1 jump) of the piece on `from` in `pos`, jumps per 4.3 / 4.7 / 4.8. */
export function captureChains(pos: Position, from: number): Move[] {
  const g = geometry(pos.variant);
  const board = Int8Array.from(pos.board);
  const code = board[from];
  if (code === 0) return [];
  const white = isWhiteCode(code);
  const king = code >= 3;
  const piece = pieceOfCode(code);
  const taken = new Uint8Array(board.length);
  const captured: number[] = [];
  const path: number[] = [from];
  const out: Move[] = [];
  board[from] = 0; // the mover's own square is empty during its capture
  const search = (sq: number) => {
    for (let d = 0; d < 4; d++) {
      const ray = g.rays[sq][d];
      let i = 0;
      if (king) while (i < ray.length && board[ray[i]] === 0) i++;
      if (i >= ray.length - 1) continue;
      const victim = ray[i];
      const vc = board[victim];
      if (vc === 0 || taken[victim] || isWhiteCode(vc) === white) continue;
      for (let j = i + 1; j < ray.length && board[ray[j]] === 0; j++) {
        const land = ray[j];
        taken[victim] = 1;
        captured.push(victim);
        path.push(land);
        const promotes = !king && (white ? g.whitePromotion(land) : g.blackPromotion(land));
        out.push({ from, to: land, path: [...path], captured: [...captured], promotes, piece });
        search(land);
        path.pop();
        captured.pop();
        taken[victim] = 0;
        if (!king) break;
      }
    }
  };
  search(from);
  return out;
}
