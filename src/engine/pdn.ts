// PDN reading (the PDN 3.0 reading grammar, as lidraughts and the draughts programs write it):
// tags, multi-game files, comments with clocks, variations (skipped or kept), NAGs and move
// strengths, move numbers, results in draughts and chess style, GameType 20/26 and its long form,
// FEN/SetUp and `/FEN "…"/` setups, `?` for unknown values. Every move is resolved against the legal
// moves; an illegal or ambiguous move is a located error (file:line:col), and so is what the grammar
// refuses: a game without a terminator before the next tags, stray characters, a move number with
// no move. Never throws on user data; games are read one at a time (PdnReader), so a file of any
// size is read in bounded memory, and nesting and game length have bounds with located errors.
import type { ParseError, SourceLocation } from '../result.ts';
import { FEN_ERROR_CODES, parseFen } from './fen.ts';
import { MOVE_ERROR_CODES, type MoveError, moveNotation, parseMoveText, resolveMove } from './notation.ts';
import { type PdnClock, parseClockComment } from './pdn-clock.ts';
import { GameText, type Located, PDN_SYNTAX_CODES, type TagToken } from './pdn-game-text.ts';
import { PdnLexer, type PdnToken } from './pdn-lex.ts';
import { play } from './play.ts';
import { Position } from './position.ts';
import type { GameResult } from './result.ts';
import type { Side, Move } from './types.ts';
import type { Variant } from './variant.ts';

/** A PDN game's result, draughts style. */
export type PdnResult = GameResult;

/** What a game of a PDN file can be refused or warned for: its syntax, its setup, its moves. */
export const PDN_ERROR_CODES = [
  ...PDN_SYNTAX_CODES,
  'unsupported-game-type',
  'move-form',
  ...FEN_ERROR_CODES,
  ...MOVE_ERROR_CODES,
] as const;
export type PdnErrorCode = (typeof PDN_ERROR_CODES)[number];
/** A located problem of a game (file:line:col); an ambiguous move lists the paths that would decide. */
export type PdnError = MoveError<PdnErrorCode>;

export interface PdnMove {
  /** 1-based half-move number within its line. */
  ply: number;
  /** Move number as written in PDN (`12.`), and who made the move. */
  number: number;
  color: Side;
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
  /** The terminator as written (`1-0`, `0-0`, `*`), when the game has one. */
  resultText?: string;
  /** Comments before the first move. */
  comment?: string;
  /** Where the game starts in the file. */
  line: number;
  /** Problems in this game in file order; its moves stop before the first illegal one. */
  errors: PdnError[];
  /** Forms read though not PDN 3.0 (a NAG above 255, `x` for a quiet move, `-` for a capture), in file order. */
  warnings: PdnError[];
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
  /** Every game's errors, in file order. */
  errors: PdnError[];
  /** Every game's warnings, in file order. */
  warnings: PdnError[];
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
    case '0.5-0.5':
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

/**
 * Reads PDN text as it arrives, one game at a time: `push` gives the games completed so far and
 * `end` the last one. Memory holds one game, whatever the size of the file.
 */
export class PdnReader {
  private readonly lexer = new PdnLexer();
  private game: GameText;

  constructor(private readonly options: PdnOptions = {}) {
    this.game = new GameText(options.file);
  }

  push(text: string): PdnGame[] {
    this.lexer.push(text);
    return this.drain();
  }

  end(): PdnGame[] {
    this.lexer.end();
    const out = this.drain();
    const last = this.finish('end');
    if (last) out.push(last);
    return out;
  }

  private drain(): PdnGame[] {
    const out: PdnGame[] = [];
    for (let t = this.lexer.next(); t; t = this.lexer.next()) {
      if (t.kind === 'tag') {
        if (this.game.movetext) {
          const g = this.finish('tag');
          if (g) out.push(g);
        } else if (this.game.tags.length === 0) {
          // Comments after the last game's terminator belong to no game.
          this.game = new GameText(this.options.file);
        }
        this.game.addTag(t);
      } else if (this.game.add(t)) {
        const g = this.finish('result');
        if (g) out.push(g);
      }
    }
    return out;
  }

  private finish(reason: 'result' | 'tag' | 'end'): PdnGame | undefined {
    const text = this.game;
    this.game = new GameText(this.options.file);
    // Comments alone, or a terminator with nothing before it, are no game.
    if (text.empty || (text.tags.length === 0 && !text.body.some((t) => t.kind !== 'comment'))) {
      if (!text.problem) return undefined;
    }
    text.close(reason);
    return readGame(text, this.options);
  }
}

/** Reads every game of a PDN text. */
export function parsePdn(text: string, options: PdnOptions = {}): PdnParse {
  const reader = new PdnReader(options);
  const games = [...reader.push(text), ...reader.end()];
  return { games, errors: games.flatMap((g) => g.errors), warnings: games.flatMap((g) => g.warnings) };
}

interface Node {
  token: Extract<PdnToken, { kind: 'move' }>;
  nags: number[];
  comments: string[];
  variations: Node[][];
}

const known = (value: string | undefined) =>
  value === undefined || /^\s*\?*\s*$/.test(value) ? undefined : value;
const byLocation = (a: ParseError, b: ParseError) =>
  (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);

interface Movetext {
  root: Node[];
  /** Comments before the first move. */
  preComments: string[];
  /** A `/…/` setup before the first move. */
  setup?: { text: string; at: Located };
  /** The first move number, `1.` or `1...`. */
  firstNumber?: string;
}

/** The tokens of a game's movetext as a tree of moves with their comments, NAGs and variations. */
function movetextOf(body: readonly PdnToken[]): Movetext {
  const tree: Movetext = { root: [], preComments: [] };
  const stack: Node[][] = [tree.root];
  for (const t of body) {
    const lineNodes = stack[stack.length - 1];
    const last = lineNodes[lineNodes.length - 1];
    if (t.kind === 'move') lineNodes.push({ token: t, nags: [], comments: [], variations: [] });
    else if (t.kind === 'comment') {
      if (last) last.comments.push(t.text);
      else if (stack.length === 1) tree.preComments.push(t.text);
    } else if (t.kind === 'setup') {
      if (tree.root.length === 0 && stack.length === 1) tree.setup = { text: t.text, at: t };
      else if (last) last.comments.push(t.text);
    } else if (t.kind === 'nag') last?.nags.push(t.nag);
    else if (t.kind === 'number') tree.firstNumber ??= t.text;
    else if (t.kind === 'open') {
      const variation: Node[] = [];
      if (last) last.variations.push(variation);
      stack.push(variation);
    } else if (t.kind === 'close' && stack.length > 1) stack.pop();
  }
  return tree;
}

/** The start position: the FEN tag, else a `/FEN "…"/` setup, else the initial position. */
function startOf(
  fenTag: TagToken | undefined,
  tree: Movetext,
  variant: Variant,
  fail: (e: ParseError<PdnErrorCode>, at: Located, col: number) => void,
): Position | undefined {
  const setupFen = tree.setup && /^FEN\s*"([^"]*)"/i.exec(tree.setup.text);
  const fen = fenTag
    ? { value: fenTag.value, line: fenTag.line, col: fenTag.valueCol }
    : tree.setup && setupFen
      ? {
          value: setupFen[1],
          line: tree.setup.at.line,
          col: tree.setup.at.col + tree.setup.text.indexOf('"') + 2,
        }
      : undefined;
  if (!fen) return Position.initial(variant);
  const r = parseFen(fen.value, { variant, unknownTurn: 'white' });
  if (!r.ok) {
    fail(r.error, fen, fen.col + (r.error.offset ?? 0));
    return undefined;
  }
  if (!fen.value.trim().startsWith('?')) return r.value;
  // `?` to move: the move numbers (`1...`) or the first move tell who moves first.
  const first = tree.root[0]?.token.text;
  const blackFirst =
    tree.firstNumber?.endsWith('..') ||
    (first !== undefined &&
      !resolveMove(r.value, first).ok &&
      resolveMove(r.value.withTurn('black'), first).ok);
  return blackFirst ? r.value.withTurn('black') : r.value;
}

/**
 * The moves of a line resolved against the legal moves from `from`, up to the first that is not;
 * with the variations when kept. Recursion is bounded by MAX_VARIATION_DEPTH (deeper ones are not
 * kept in the tree).
 */
function resolveLine(
  from: Position,
  nodes: readonly Node[],
  firstPly: number,
  context: {
    blackFirst: boolean;
    keep: boolean;
    fail: (e: PdnError) => void;
    warn: (w: PdnError) => void;
    at: (t: Located) => SourceLocation;
  },
): { moves: PdnMove[]; end: Position } {
  const moves: PdnMove[] = [];
  let pos = from;
  for (let k = 0; k < nodes.length; k++) {
    const node = nodes[k];
    const ply = firstPly + k;
    const half = ply - 1 + (context.blackFirst ? 1 : 0);
    const number = Math.floor(half / 2) + 1;
    const r = resolveMove(pos, node.token.text);
    if (!r.ok) {
      const who = `${number}${pos.turn === 'white' ? '.' : '...'}`;
      context.fail({ ...r.error, message: `${who} ${r.error.message}`, ...context.at(node.token) });
      break;
    }
    const form = writtenForm(node.token.text, r.value, pos.variant);
    if (form) context.warn({ code: 'move-form', message: form, ...context.at(node.token) });
    const variations: PdnMove[][] = [];
    if (context.keep) {
      for (const v of node.variations) {
        const alt = resolveLine(pos, v, ply, context).moves;
        if (alt.length > 0) variations.push(alt);
      }
    }
    const comment = node.comments.length > 0 ? node.comments.join(' ') : undefined;
    const clock = comment === undefined ? undefined : parseClockComment(comment, pos.turn);
    moves.push({
      ply,
      number,
      color: pos.turn,
      text: node.token.text,
      move: r.value,
      notation: moveNotation(pos, r.value),
      ...(comment === undefined ? {} : { comment }),
      ...(clock === undefined ? {} : { clock }),
      nags: node.nags,
      variations,
      line: node.token.line,
      col: node.token.col,
    });
    pos = play(pos, r.value);
  }
  return { moves, end: pos };
}

/** What is not PDN 3.0 in how a legal move is written: `x` for a quiet move, `-` for a capture. */
function writtenForm(text: string, move: Move, variant: Variant): string | undefined {
  // Read as the move text parser reads it (`:` says neither).
  const written = parseMoveText(text, variant);
  if (!written.ok || written.value.capture === undefined) return undefined;
  const cross = written.value.capture;
  const capture = move.captured.length > 0;
  if (cross && !capture)
    return `${text}: "x" for a move that captures nothing (PDN 3.0: ${move.from}-${move.to})`;
  if (!cross && capture) return `${text}: "-" for a capture (PDN 3.0 writes captures with "x")`;
  return undefined;
}

function readGame(text: GameText, options: PdnOptions): PdnGame {
  const errors: PdnError[] = text.problem ? [text.problem] : [];
  const warnings: PdnError[] = [...text.warnings];
  const at = (t: Located, col = t.col) => ({ file: options.file, line: t.line, col });
  const tags: Record<string, string> = {};
  for (const t of text.tags) tags[t.name] = t.value;
  const tagToken = (name: string) =>
    text.tags.findLast((t) => t.name === name && known(t.value) !== undefined);

  let variant: Variant = options.variant ?? 'international';
  const gameTypeTag = tagToken('GameType');
  const gameType = gameTypeTag && variantOfGameType(gameTypeTag.value);
  if (gameTypeTag && !gameType) {
    errors.push({
      code: 'unsupported-game-type',
      message: `GameType "${gameTypeTag.value}" is not International (20) or Brazilian (26)`,
      ...at(gameTypeTag, gameTypeTag.valueCol),
    });
  }
  if (gameType) variant = gameType;
  const tree = movetextOf(text.body);
  const start =
    gameTypeTag && !gameType
      ? undefined
      : startOf(tagToken('FEN'), tree, variant, (e, where, col) => errors.push({ ...e, ...at(where, col) }));
  const line = start
    ? resolveLine(start, tree.root, 1, {
        blackFirst: start.turn === 'black',
        keep: options.variations === 'keep',
        fail: (e) => errors.push(e),
        warn: (w) => warnings.push(w),
        at,
      })
    : undefined;
  const result = normalizeResult(text.result ?? known(tags.Result) ?? '*') ?? '*';
  const position = start ?? Position.initial(variant);
  return {
    tags,
    variant,
    start: position,
    moves: line?.moves ?? [],
    end: line?.end ?? position,
    result,
    ...(text.result === undefined ? {} : { resultText: text.result }),
    ...(tree.preComments.length > 0 ? { comment: tree.preComments.join(' ') } : {}),
    line: text.line,
    errors: errors.sort(byLocation),
    warnings: warnings.sort(byLocation),
  };
}
