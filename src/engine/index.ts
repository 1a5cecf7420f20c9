// The rules engine: pure, no I/O. See src/engine/*.ts for each concern.
// - Positions: Position.initial/setup, parseFen/writeFen (fen.ts), geometry (variant.ts).
// - Moves: legalMoves (canonical), legalSequences/captureSequences (every path and capture order),
//   play; moveNotation/resolveMove (notation.ts: `32-28`, `19x28`, PDN 3.0 path when needed).
// - PDN: parsePdn/PdnReader (pdn.ts, tokens in pdn-lex.ts), decodePdn (pdn-decode.ts: UTF-8 or
//   Latin-1), writePdnGame/writePdn (pdn-write.ts); clock comments (pdn-clock.ts).
// - Game end: startGame/advance with a draw-rule profile `fmjd`, `fmjd-64` or `club` (draw.ts).
// - perft (bitboard.ts, bulk counting) and perftReference (through legalMoves).
export type { FenError, FenErrorCode, FenOptions } from './fen.ts';
export { FEN_ERROR_CODES, parseFen, validatePosition, writeFen } from './fen.ts';
export { captureSequences, dedupe, legalMoves, legalSequences } from './movegen.ts';
export { play } from './play.ts';
export { Position } from './position.ts';
export type { Move, Piece, Side } from './types.ts';
export { SIDES } from '../../firmware-protocol/side.ts';
export { colorOf, isCapture, isKing, kingOf, manOf, moveKey, opposite } from './types.ts';
export { geometry, isVariant, VARIANTS } from './variant.ts';
export type { Geometry, Variant } from './variant.ts';
export type { MoveError, MoveErrorCode, MoveText } from './notation.ts';
export { MOVE_ERROR_CODES } from './notation.ts';
export { moveNotation, parseMoveText, pdnCapturePath, resolveMove } from './notation.ts';
export type { PdnError, PdnErrorCode, PdnGame, PdnMove, PdnOptions, PdnParse, PdnResult } from './pdn.ts';
export { MAX_GAME_CHARS, MAX_GAME_TOKENS, MAX_VARIATION_DEPTH } from './pdn-game-text.ts';
export {
  normalizeResult,
  PDN_ERROR_CODES,
  PdnReader,
  parsePdn,
  variantOfGameType,
} from './pdn.ts';
export type { PdnEncoding } from './pdn-decode.ts';
export { decodePdn, PdnEncodingSniffer, pdnDecoder } from './pdn-decode.ts';
export type { PdnToken } from './pdn-lex.ts';
export { lexPdn, MAX_TOKEN_CHARS, PdnLexer } from './pdn-lex.ts';
export type { PdnClock } from './pdn-clock.ts';
export { clockCommand, formatClockTime, parseClockComment } from './pdn-clock.ts';
export type { PdnGameToWrite } from './pdn-write.ts';
export { writePdn, writePdnGame } from './pdn-write.ts';
export { perft, perftDivide, perftReference } from './perft.ts';
export { FINAL_RESULTS, GAME_RESULTS, type GameResult } from './result.ts';
export type {
  DrawCounters,
  DrawProfileName,
  DrawRules,
  EndgameCount,
  FinalResult,
  GameOver,
  GameState,
} from './draw.ts';
export { advance, advantageOf, DRAW_PROFILES, decisiveResult, replay, startGame } from './draw.ts';
