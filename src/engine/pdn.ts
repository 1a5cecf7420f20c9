// PDN reading (PDN 3.0 as lidraughts reads it, broadcast.md): tags, multi-game files, comments with
// clocks, variations (skipped or kept), NAGs, move numbers, results in draughts and chess style,
// GameType 20/26 and its long form, FEN/SetUp. Every move is resolved against the legal moves; an
// illegal or ambiguous move is a located error (file:line:col). Never throws on user data.
import type { ParseError } from '../result.ts';
import { parseFen } from './fen.ts';
import { legalMoves } from './movegen.ts';
import { moveNotation, resolveMove } from './notation.ts';
import { type PdnClock, parseClockComment } from './pdn-clock.ts';
import { lexPdn, type PdnToken } from './pdn-lex.ts';
import { play } from './play.ts';
import { Position } from './position.ts';
import type { Color, Move } from './types.ts';
import type { Variant } from './variant.ts';

export type PdnResult = '2-0' | '1-1' | '0-2' | '*';

export interface PdnMove {
  /** 1-based half-move number within its line. */
  ply: number;
  /** Move number as written in PDN (`12.`), and who made the move. */
  number: number;
  color: Color;
  /** The move text as written in the file. */
  text: string;
  /** The legal (canonical) move it resolves to. */
  move: Move;
  /** How damlink writes it (`32-28`, `19x28`, or the PDN 3.0 path when needed). */
  notation: string;
  /** The comments after the move, joined with a space (clock commands included). */
  comment?: string;
  /** The clock found in those comments. */
  clock?: PdnClock;
  nags: number[];
  /** Alternatives to this move (only with `variations: 'keep'`), each starting where this move starts. */
  variations: PdnMove[][];
  line: number;
  col: number;
}

export interface PdnGame {
  /** Tags in file order. */
  tags: Record<string, string>;
  variant: Variant;
  start: Position;
  moves: PdnMove[];
  /** Position after the last move that could be read. */
  end: Position;
  /** The movetext result, else the Result tag, in draughts style. */
  result: PdnResult;
  /** Comments before the first move. */
  comment?: string;
  /** Where the game starts in the file. */
  line: number;
  /** Problems in this game; its moves stop before the first illegal one. */
  errors: ParseError[];
}

export interface PdnOptions {
  /** Shown in errors (`file:line:col`). */
  file?: string;
  /** Variations are skipped unless kept (they are still checked for syntax). */
  variations?: 'skip' | 'keep';
  /** Used when a game has no GameType tag (default international). */
  variant?: Variant;
}

export interface PdnParse {
  games: PdnGame[];
  /** Every game's errors, plus stray problems between games, in file order. */
  errors: ParseError[];
}

/** Draughts-style result from any spelling we read (`1-0`, `1/2-1/2`, …); undefined if unknown. */
export function normalizeResult(text: string): PdnResult | undefined {
  switch (text.trim()) {
    case '2-0':
    case '1-0':
      return '2-0';
    case '0-2':
    case '0-1':
      return '0-2';
    case '1-1':
    case '1/2-1/2':
    case '½-½':
      return '1-1';
    case '*':
      return '*';
    default:
      return undefined;
  }
}

/** GameType tag (`20`, `26`, or the long form `20,W,10,10,N2,0`) → variant. */
export function variantOfGameType(value: string): Variant | undefined {
  const n = Number(/^\s*(\d+)/.exec(value)?.[1]);
  return n === 20 ? 'international' : n === 26 ? 'brazilian' : undefined;
}

/** Reads every game of a PDN text. */
export function parsePdn(text: string, options: PdnOptions = {}): PdnParse {
  const tokens = lexPdn(text);
  const games: PdnGame[] = [];
  const errors: ParseError[] = [];
  let i = 0;
  while (i < tokens.length) {
    const start = i;
    while (i < tokens.length && tokens[i].kind === 'tag') i++;
    const tagEnd = i;
    // Movetext runs to the result at depth 0, or to the next tag.
    let depth = 0;
    while (i < tokens.length) {
      const t = tokens[i];
      if (t.kind === 'tag' && depth === 0) break;
      i++;
      if (t.kind === 'open') depth++;
      else if (t.kind === 'close') depth = Math.max(0, depth - 1);
      else if (t.kind === 'result' && depth === 0) break;
    }
    const tagTokens = tokens.slice(start, tagEnd) as Array<Extract<PdnToken, { kind: 'tag' }>>;
    const moveTokens = tokens.slice(tagEnd, i);
    // A lone comment after the last result is no game.
    if (tagTokens.length === 0 && moveTokens.every((t) => t.kind === 'comment')) continue;
    const game = readGame(tagTokens, moveTokens, options);
    games.push(game);
    errors.push(...game.errors);
  }
  return { games, errors };
}

interface Node {
  token: Extract<PdnToken, { kind: 'move' }>;
  nags: number[];
  comments: string[];
  variations: Node[][];
}

function readGame(
  tagTokens: ReadonlyArray<Extract<PdnToken, { kind: 'tag' }>>,
  moveTokens: readonly PdnToken[],
  options: PdnOptions,
): PdnGame {
  const errors: ParseError[] = [];
  const at = (t: { line: number; col: number }, col = t.col) => ({ file: options.file, line: t.line, col });
  const tags: Record<string, string> = {};
  for (const t of tagTokens) tags[t.name] = t.value;
  const firstToken = tagTokens[0] ?? moveTokens[0];
  const line = firstToken?.line ?? 1;

  let variant: Variant = options.variant ?? 'international';
  const gameTypeTag = tagTokens.find((t) => t.name === 'GameType');
  let start = Position.initial(variant);
  let playable = true;
  if (gameTypeTag) {
    const v = variantOfGameType(gameTypeTag.value);
    if (v) {
      variant = v;
      start = Position.initial(variant);
    } else {
      playable = false;
      errors.push({
        code: 'unsupported-game-type',
        message: `GameType "${gameTypeTag.value}" is not International (20) or Brazilian (26)`,
        ...at(gameTypeTag, gameTypeTag.valueCol),
      });
    }
  }
  const fenTag = tagTokens.find((t) => t.name === 'FEN');
  if (fenTag && playable) {
    const fen = parseFen(fenTag.value, { variant });
    if (fen.ok) start = fen.value;
    else {
      playable = false;
      errors.push({ ...fen.error, ...at(fenTag, fenTag.valueCol + (fen.error.offset ?? 0)) });
    }
  }

  // Movetext → tree of moves with their comments, NAGs and variations.
  let resultText: string | undefined;
  const preComments: string[] = [];
  const root: Node[] = [];
  const stack: Node[][] = [root];
  for (const t of moveTokens) {
    const lineNodes = stack[stack.length - 1];
    const last = lineNodes[lineNodes.length - 1];
    if (t.kind === 'move') lineNodes.push({ token: t, nags: [], comments: [], variations: [] });
    else if (t.kind === 'comment') {
      if (last) last.comments.push(t.text);
      else if (stack.length === 1) preComments.push(t.text);
    } else if (t.kind === 'nag') last?.nags.push(t.nag);
    else if (t.kind === 'open') {
      const variation: Node[] = [];
      if (last) last.variations.push(variation);
      stack.push(variation);
    } else if (t.kind === 'close') {
      if (stack.length > 1) stack.pop();
      else errors.push({ code: 'unbalanced-variation', message: '")" without "("', ...at(t) });
    } else if (t.kind === 'result') {
      if (stack.length === 1) resultText = t.text;
    } else if (t.kind === 'unknown') {
      errors.push({ code: 'unexpected-token', message: t.message, ...at(t) });
      break;
    } else if (t.kind === 'tag') {
      errors.push({ code: 'unexpected-tag', message: 'a tag inside a variation', ...at(t) });
    }
  }
  if (stack.length > 1 && errors.length === 0) {
    const t = moveTokens[moveTokens.length - 1];
    errors.push({ code: 'unbalanced-variation', message: 'a variation is never closed with ")"', ...at(t) });
  }

  const keep = options.variations === 'keep';
  const blackFirst = start.turn === 'black';
  const resolveLine = (from: Position, nodes: readonly Node[], firstPly: number): PdnMove[] => {
    const out: PdnMove[] = [];
    let pos = from;
    for (let k = 0; k < nodes.length; k++) {
      const node = nodes[k];
      const ply = firstPly + k;
      const half = ply - 1 + (blackFirst ? 1 : 0);
      const number = Math.floor(half / 2) + 1;
      const r = resolveMove(pos, node.token.text);
      if (!r.ok) {
        const who = `${number}${pos.turn === 'white' ? '.' : '...'}`;
        errors.push({ code: r.error.code, message: `${who} ${r.error.message}`, ...at(node.token) });
        return out;
      }
      const variations: PdnMove[][] = [];
      if (keep) {
        for (const v of node.variations) {
          const alt = resolveLine(pos, v, ply);
          if (alt.length > 0) variations.push(alt);
        }
      }
      const comment = node.comments.length > 0 ? node.comments.join(' ') : undefined;
      const clock = comment === undefined ? undefined : parseClockComment(comment, pos.turn);
      const legal = legalMoves(pos);
      out.push({
        ply,
        number,
        color: pos.turn,
        text: node.token.text,
        move: r.value,
        notation: moveNotation(pos, r.value, legal),
        ...(comment === undefined ? {} : { comment }),
        ...(clock === undefined ? {} : { clock }),
        nags: node.nags,
        variations,
        line: node.token.line,
        col: node.token.col,
      });
      pos = play(pos, r.value);
    }
    return out;
  };

  const moves = playable ? resolveLine(start, root, 1) : [];
  let end = start;
  for (const m of moves) end = play(end, m.move);
  const result = normalizeResult(resultText ?? tags.Result ?? '*') ?? '*';
  return {
    tags,
    variant,
    start,
    moves,
    end,
    result,
    ...(preComments.length > 0 ? { comment: preComments.join(' ') } : {}),
    line,
    errors,
  };
}
