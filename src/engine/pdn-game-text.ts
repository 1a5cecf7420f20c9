// One PDN game's tokens as the reader collects them, and the grammar's checks on them: a move
// number needs a move, a variation is closed, a game ends with a result before the next tags, and a
// game's size is bounded (each a located error, the first one kept).
import type { ParseError } from '../result.ts';
import type { PdnToken } from './pdn-lex.ts';

/** Bounds on what one game may hold; beyond them the game gets a located error. */
export const MAX_VARIATION_DEPTH = 64;
export const MAX_GAME_TOKENS = 100_000;
/** Characters of tag values and comments one game may hold (each is up to MAX_TOKEN_CHARS). */
export const MAX_GAME_CHARS = 1 << 24;

/** What the grammar refuses in one game's tokens. */
export const PDN_SYNTAX_CODES = [
  'unexpected-token',
  'number-without-move',
  'ellipsis-without-move',
  'unbalanced-variation',
  'too-deep',
  'game-too-long',
  'missing-terminator',
  'nag-range',
] as const;
type SyntaxCode = (typeof PDN_SYNTAX_CODES)[number];

export type TagToken = Extract<PdnToken, { kind: 'tag' }>;
export type Located = { line: number; col: number };

/** One game's tokens as they arrive, with the first problem of its syntax. */
export class GameText {
  readonly tags: TagToken[] = [];
  readonly body: PdnToken[] = [];
  problem: ParseError<SyntaxCode> | undefined;
  readonly warnings: ParseError<SyntaxCode>[] = [];
  result: string | undefined;
  movetext = false;
  /** A lone `.`/`...` (standing for a move not given): the grammar wants a move after it. */
  private pendingEllipsis: Located | undefined;
  /**
   * The move number and ellipsis of Black's turn (`77. ...`, `77...`) with no move yet: before the
   * result it says only whose turn it was when the game ended, as analysis programs write it.
   */
  private blackToMove = false;
  private first: Located | undefined;
  private last: Located | undefined;
  private depth = 0;
  private readonly opens: Located[] = [];
  private pendingNumber: Located | undefined;
  private count = 0;
  private chars = 0;

  constructor(private readonly file: string | undefined) {}

  get line(): number {
    return this.first?.line ?? 1;
  }

  get empty(): boolean {
    return this.tags.length === 0 && !this.movetext;
  }

  private fail(code: SyntaxCode, message: string, at: Located): void {
    if (!this.problem) this.problem = { code, message, file: this.file, line: at.line, col: at.col };
  }

  addTag(t: TagToken): void {
    this.first ??= t;
    if (this.counted(t)) this.tags.push(t);
  }

  /** False past the game's bounds: a flood of tags, moves or comments is one located error, not kept. */
  private counted(t: PdnToken): boolean {
    this.chars += t.kind === 'tag' ? t.value.length : t.kind === 'comment' ? t.text.length : 0;
    if (++this.count <= MAX_GAME_TOKENS && this.chars <= MAX_GAME_CHARS) return true;
    const what =
      this.count > MAX_GAME_TOKENS
        ? `${MAX_GAME_TOKENS} tags, moves, comments and marks`
        : `${MAX_GAME_CHARS} characters of tags and comments`;
    this.fail('game-too-long', `a game of more than ${what}`, t);
    return false;
  }

  /** Takes a movetext token; true when it ends the game (its terminator). */
  add(t: PdnToken): boolean {
    this.first ??= t;
    this.last = t;
    if (t.kind === 'unknown') this.fail('unexpected-token', t.message, t);
    if (t.kind === 'result' && this.blackToMove) {
      this.pendingNumber = undefined;
      this.pendingEllipsis = undefined;
    }
    if (this.pendingNumber && t.kind !== 'move' && t.kind !== 'ellipsis' && t.kind !== 'comment') {
      this.fail('number-without-move', 'a move number must be followed by a move', this.pendingNumber);
      this.pendingNumber = undefined;
    }
    if (this.pendingEllipsis && t.kind !== 'move' && t.kind !== 'comment') {
      this.fail(
        'ellipsis-without-move',
        '"." stands for a move not given: a move must follow it',
        this.pendingEllipsis,
      );
      this.pendingEllipsis = undefined;
    }
    if (t.kind !== 'comment') this.movetext = true;
    this.counted(t);
    if (t.kind === 'nag' && t.warning && !this.problem)
      this.warnings.push({
        code: 'nag-range',
        message: t.warning,
        file: this.file,
        line: t.line,
        col: t.col,
      });
    switch (t.kind) {
      case 'result':
        if (this.depth > 0) return false; // lidraughts reads a result inside a variation, and ignores it
        this.result = t.text;
        return true;
      case 'number':
        this.pendingNumber = t;
        this.blackToMove = /(\.\.|…)$/.test(t.text);
        break;
      case 'move':
        this.pendingNumber = undefined;
        this.pendingEllipsis = undefined;
        this.blackToMove = false;
        break;
      case 'ellipsis':
        // Right after a move number it is that number's Black form (`77. ...`); alone, a stray mark.
        this.blackToMove = this.pendingNumber !== undefined && !this.pendingEllipsis;
        this.pendingNumber = undefined;
        this.pendingEllipsis = t;
        break;
      case 'open':
        this.depth++;
        if (this.depth > MAX_VARIATION_DEPTH) {
          this.fail('too-deep', `variations nested more than ${MAX_VARIATION_DEPTH} deep`, t);
        } else this.opens.push(t);
        break;
      case 'close':
        if (this.depth === 0) this.fail('unbalanced-variation', '")" without "("', t);
        else if (this.depth-- <= MAX_VARIATION_DEPTH) this.opens.pop();
        break;
    }
    if (!this.problem) this.body.push(t);
    return false;
  }

  /** The game is over: `reason` is what ended it. */
  close(reason: 'result' | 'tag' | 'end'): void {
    if (this.pendingNumber)
      this.fail('number-without-move', 'a move number must be followed by a move', this.pendingNumber);
    if (this.pendingEllipsis)
      this.fail(
        'ellipsis-without-move',
        '"." stands for a move not given: a move must follow it',
        this.pendingEllipsis,
      );
    const open = this.opens[this.opens.length - 1];
    if (reason !== 'result' && open)
      this.fail('unbalanced-variation', 'a variation is never closed with ")"', open);
    if (reason === 'tag' && this.last) {
      this.fail('missing-terminator', 'the game has no result or "*" before the next tags', this.last);
    }
  }
}
