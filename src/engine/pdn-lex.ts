// PDN tokens with their line and column, read as the PDN 3.0 reading grammar and the draughts
// programs write them: tags, `{}` and `;` comments, `%` escape lines, `/…/` setups, variations, move
// numbers glued or spaced (`1.32-28`, `1. 32 - 28`), moves with `-`, `x`, `:` (and the typographic
// dashes and `×`), zero-padded or algebraic (8×8) squares, NAGs and move strengths in every form
// (`$1`, `!`, `?!`, `(!)`, `□`), results in draughts and chess style. Never throws: what cannot be
// read becomes an `unknown` token that the reader reports.
//
// The lexer is incremental: text arrives in chunks (`push`), and a token that may go on in the next
// chunk waits for it, so files of any size are read in bounded memory. A token is at most
// MAX_TOKEN_CHARS long: an unclosed comment or tag is reported once that much text has gone by.

export type PdnToken =
  | { kind: 'tag'; name: string; value: string; line: number; col: number; valueCol: number }
  | { kind: 'comment'; text: string; line: number; col: number }
  /** `/FEN "W:…"/`: a setup inside the movetext (its inner text, `FEN "W:…"`). */
  | { kind: 'setup'; text: string; line: number; col: number }
  | { kind: 'open' | 'close'; line: number; col: number }
  | { kind: 'number'; text: string; line: number; col: number }
  /** `...` standing for a move that is not given (`1. ... 19-23`). */
  | { kind: 'ellipsis'; line: number; col: number }
  /** Squares joined by `-`, `x` or `:`, spaces taken out, typographic separators made ASCII. */
  | { kind: 'move'; text: string; line: number; col: number }
  /** `warning`: read, though not in the PDN 3.0 form (a NAG above 255, as some archives write). */
  | { kind: 'nag'; nag: number; line: number; col: number; warning?: string }
  | { kind: 'result'; text: string; line: number; col: number }
  | { kind: 'unknown'; text: string; line: number; col: number; message: string };

export const MAX_TOKEN_CHARS = 1 << 20;

/** Move strengths as the NAGs they stand for (PGN 8.2.4; `□` only move, `⨀` zugzwang as lidraughts). */
const STRENGTH_NAG: Record<string, number> = {
  '!': 1,
  '?': 2,
  '!!': 3,
  '??': 4,
  '!?': 5,
  '?!': 6,
  '□': 7,
  '⨀': 22,
};
/** Every result lidraughts reads, the reading grammar's double forfeit `0-0`, and `*`. */
const RESULTS = ['1/2-1/2', '0.5-0.5', '½-½', '2-0', '0-2', '1-1', '1-0', '0-1', '0-0'];
/** Move separators as written in the wild, and what they mean. */
const SEPARATOR: Record<string, string> = {
  '-': '-',
  '‑': '-',
  '–': '-',
  '—': '-',
  x: 'x',
  X: 'x',
  '×': 'x',
  ':': ':',
};
const DELIMITERS = '{}()[];*';
const MAX_SQUARE_DIGITS = 3;

const isSpace = (c: string) =>
  c === ' ' ||
  c === '\n' ||
  c === '\r' ||
  c === '\t' ||
  c === '\f' ||
  c === '\v' ||
  c === '\ufeff' ||
  c === '\u00a0';
const isDigit = (c: string) => c >= '0' && c <= '9';
const isFile = (c: string) => c >= 'a' && c <= 'h';
const isRank = (c: string) => c >= '1' && c <= '8';
const isBoundary = (c: string) => c === '' || isSpace(c) || DELIMITERS.includes(c);

/** Thrown inside a scan that reached the end of the text so far; caught in `next`. */
const STARVED = Symbol('starved');

export class PdnLexer {
  private text = '';
  private pos = 0;
  private line = 1;
  /** Index in `text` where the current line starts (negative once that part is dropped). */
  private lineStart = 0;
  /** Only whitespace since the line started: `%` opens an escape line here. */
  private blank = true;
  private ended = false;
  /** The scan in progress may read to the end of the text (at the end, or past the token bound). */
  private greedy = false;

  /** Adds text; what was read already is dropped. */
  push(chunk: string): void {
    if (this.pos > 0) {
      this.text = this.text.slice(this.pos);
      this.lineStart -= this.pos;
      this.pos = 0;
    }
    this.text = this.text.length === 0 ? chunk : this.text + chunk;
  }

  /** No more text: the last token is read as it stands. */
  end(): void {
    this.ended = true;
  }

  /** The next token, or undefined when the text pushed so far is used up (all of it, once ended). */
  next(): PdnToken | undefined {
    for (;;) {
      this.skipSpace();
      if (this.pos >= this.text.length) return undefined;
      this.greedy = this.ended;
      let token: PdnToken | undefined;
      try {
        token = this.scan();
      } catch (e) {
        if (e !== STARVED) throw e;
        // A token longer than the bound is read as it stands rather than waited for.
        if (this.text.length - this.pos <= MAX_TOKEN_CHARS) return undefined;
        this.greedy = true;
        token = this.scan();
      }
      if (token) return token;
    }
  }

  /** Whitespace up to the text's end; lines are counted as they pass. */
  private skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length && isSpace(t[this.pos])) {
      if (t[this.pos] === '\n') {
        this.line++;
        this.lineStart = this.pos + 1;
        this.blank = true;
      }
      this.pos++;
    }
  }

  /** The character at `i`, '' at the end; throws STARVED when more text may come. */
  private at(i: number): string {
    if (i < this.text.length) return this.text[i];
    if (this.greedy) return '';
    throw STARVED;
  }

  /** Index of `needle` from `from` (the end of the text when greedy and absent). */
  private find(needle: string, from: number): number {
    const k = this.text.indexOf(needle, from);
    if (k >= 0) return k;
    if (this.greedy) return -1;
    throw STARVED;
  }

  /** Moves to `end`, counting the lines passed. */
  private advance(end: number): void {
    const t = this.text;
    // Char by char: indexOf would look past `end` on a long line, for every token on it.
    for (let k = this.pos; k < end; k++) {
      if (t.charCodeAt(k) === 10) {
        this.line++;
        this.lineStart = k + 1;
      }
    }
    this.pos = end;
    this.blank = false;
  }

  private where(i: number): { line: number; col: number } {
    return { line: this.line, col: i - this.lineStart + 1 };
  }

  /** One token from `pos` (undefined for an escape line), or STARVED. */
  private scan(): PdnToken | undefined {
    const t = this.text;
    const i = this.pos;
    const c = t[i];
    const at = this.where(i);
    if (c === '%' && this.blank) {
      const nl = this.find('\n', i);
      this.advance(nl < 0 ? t.length : nl);
      return undefined;
    }
    if (c === ';') {
      const nl = this.find('\n', i);
      const stop = nl < 0 ? t.length : nl;
      this.advance(stop);
      return { kind: 'comment', text: t.slice(i + 1, stop).trim(), ...at };
    }
    if (c === '{') {
      const close = this.find('}', i + 1);
      if (close < 0) return this.unknownToEnd(at, '{', 'comment is never closed with "}"');
      this.advance(close + 1);
      return { kind: 'comment', text: t.slice(i + 1, close).trim(), ...at };
    }
    if (c === '/') return this.setup(at);
    if (c === '[') return this.tag(at);
    if (c === '(') {
      // `(!)`, `(?!)`: a move strength, not a variation.
      let k = i + 1;
      while (this.at(k) === '!' || this.at(k) === '?') k++;
      if (k > i + 1 && this.at(k) === ')') {
        this.advance(k + 1);
        return { kind: 'nag', nag: STRENGTH_NAG[t.slice(i + 1, k)] ?? 0, ...at };
      }
      this.advance(i + 1);
      return { kind: 'open', ...at };
    }
    if (c === ')') {
      this.advance(i + 1);
      return { kind: 'close', ...at };
    }
    if (c === '*') {
      this.advance(i + 1);
      return { kind: 'result', text: '*', ...at };
    }
    if (c === '!' || c === '?') {
      let k = i;
      while (this.at(k) === '!' || this.at(k) === '?') k++;
      this.advance(k);
      return { kind: 'nag', nag: STRENGTH_NAG[t.slice(i, k)] ?? 0, ...at };
    }
    if (c === '□' || c === '⨀') {
      this.advance(i + 1);
      return { kind: 'nag', nag: STRENGTH_NAG[c], ...at };
    }
    if (c === '$') {
      let k = i + 1;
      while (isDigit(this.at(k)) && k < i + 6) k++;
      if (k > i + 1 && isBoundary(this.at(k))) {
        this.advance(k);
        const nag = Number(t.slice(i + 1, k));
        // Archives write $902 and the like (every reader we know of takes them): read, with a warning.
        return nag <= 255
          ? { kind: 'nag', nag, ...at }
          : { kind: 'nag', nag, ...at, warning: `$${nag}: PDN 3.0 NAGs are $0–$255` };
      }
      return this.unknownWord(at, 'a NAG is "$" and a number from 0 to 255');
    }
    const result = this.result(i);
    if (result) {
      this.advance(i + result.length);
      return { kind: 'result', text: result, ...at };
    }
    if (c === '.' || c === '…') {
      let k = i;
      while (this.at(k) === '.' || this.at(k) === '…') k++;
      if (isBoundary(this.at(k))) {
        this.advance(k);
        return { kind: 'ellipsis', ...at };
      }
    }
    if (isDigit(c) || (isFile(c) && isRank(this.at(i + 1)))) return this.numberOrMove(at);
    return this.unknownWord(at, undefined);
  }

  /** A result written at `i` and standing alone (`1-0` but not `1-08`). */
  private result(i: number): string | undefined {
    const t = this.text;
    for (const r of RESULTS) {
      if (t[i] !== r[0]) continue;
      let k = 0;
      while (k < r.length && this.at(i + k) === r[k]) k++;
      if (k === r.length && isBoundary(this.at(i + k))) return r;
    }
    return undefined;
  }

  private tag(at: { line: number; col: number }): PdnToken {
    const t = this.text;
    const i = this.pos;
    let k = i + 1;
    while (isSpace(this.at(k))) k++;
    const nameStart = k;
    while (/[A-Za-z0-9_]/.test(this.at(k))) k++;
    const name = t.slice(nameStart, k);
    while (isSpace(this.at(k))) k++;
    if (name === '' || this.at(k) !== '"') return this.badTag(at);
    const valueCol = at.col + (k + 1 - i);
    let value = '';
    let from = k + 1;
    for (k = from; ; k++) {
      const ch = this.at(k);
      if (ch === '') return this.badTag(at);
      if (ch === '\\') {
        value += t.slice(from, k);
        from = k + 1;
        k++;
        if (this.at(k) === '') return this.badTag(at);
      } else if (ch === '"') break;
    }
    value += t.slice(from, k);
    k++;
    while (isSpace(this.at(k))) k++;
    if (this.at(k) !== ']') return this.badTag(at);
    this.advance(k + 1);
    return { kind: 'tag', name, value, valueCol, ...at };
  }

  /**
   * `/FEN "W:…"/`, the setup inside the movetext that lidraughts reads. Any other `/` is a stray
   * character: taking the text up to the next `/` could swallow the games that follow.
   */
  private setup(at: { line: number; col: number }): PdnToken {
    const t = this.text;
    const i = this.pos;
    let k = i + 1;
    while (isSpace(this.at(k))) k++;
    const word = `${this.at(k)}${this.at(k + 1)}${this.at(k + 2)}`.toUpperCase();
    k += 3;
    while (isSpace(this.at(k))) k++;
    if (word !== 'FEN' || this.at(k) !== '"') return this.unknownWord(at, 'a setup is written /FEN "…"/');
    const close = this.find('"', k + 1);
    if (close < 0) return this.unknownWord(at, 'a setup is written /FEN "…"/');
    k = close + 1;
    while (isSpace(this.at(k))) k++;
    if (this.at(k) !== '/') return this.unknownWord(at, 'a setup is written /FEN "…"/');
    this.advance(k + 1);
    return { kind: 'setup', text: t.slice(i + 1, k).trim(), ...at };
  }

  /** The rest of the line is skipped: a broken tag says nothing about what follows it. */
  private badTag(at: { line: number; col: number }): PdnToken {
    const i = this.pos;
    const nl = this.find('\n', i);
    const stop = nl < 0 ? this.text.length : nl;
    const text = this.text.slice(i, Math.min(stop, i + 80));
    this.advance(stop);
    return { kind: 'unknown', text, message: 'a tag is written [Name "value"]', ...at };
  }

  private unknownToEnd(at: { line: number; col: number }, text: string, message: string): PdnToken {
    this.advance(this.text.length);
    return { kind: 'unknown', text, message, ...at };
  }

  /** Up to the next space or delimiter, as one unknown token. */
  private unknownWord(at: { line: number; col: number }, message: string | undefined): PdnToken {
    let k = this.pos + 1;
    while (!isBoundary(this.at(k))) k++;
    const text = this.text.slice(this.pos, Math.min(k, this.pos + 80));
    this.advance(k);
    return {
      kind: 'unknown',
      text,
      message: message ?? `"${text}" is not a move, move number or result`,
      ...at,
    };
  }

  /** The end of a square at `k` (digits, or a letter and a rank on 8×8), or -1. */
  private square(k: number): number {
    const c = this.at(k);
    if (isFile(c) && isRank(this.at(k + 1))) return k + 2;
    let e = k;
    while (isDigit(this.at(e))) e++;
    return e > k && e - k <= MAX_SQUARE_DIGITS ? e : -1;
  }

  /** `12.` / `12...`, or a move `32-28`, `32 - 28`, `47x38x29`, `c3d4`, with glued strengths. */
  private numberOrMove(at: { line: number; col: number }): PdnToken {
    const t = this.text;
    const i = this.pos;
    let k = this.square(i);
    if (k < 0) return this.unknownWord(at, undefined);
    if (isDigit(t[i]) && (this.at(k) === '.' || this.at(k) === '…')) {
      while (this.at(k) === '.' || this.at(k) === '…') k++;
      this.advance(k);
      return { kind: 'number', text: t.slice(i, k), ...at };
    }
    let text = t.slice(i, k);
    for (;;) {
      let s = k;
      while (isSpace(this.at(s))) s++;
      let sep = SEPARATOR[this.at(s)];
      // `c3d4`: two algebraic squares written together.
      if (sep === undefined && s === k && isFile(t[i]) && isFile(this.at(s)) && isRank(this.at(s + 1)))
        sep = '-';
      else if (sep === undefined) break;
      else s++;
      while (isSpace(this.at(s))) s++;
      const e = this.square(s);
      if (e < 0) {
        this.advance(s);
        return {
          kind: 'unknown',
          text: `${text}${sep}`,
          message: `"${text}${sep}" is missing its last square`,
          ...at,
        };
      }
      text += sep + t.slice(s, e);
      k = e;
    }
    if (!/[-x:]/.test(text)) return this.unknownWord(at, undefined);
    // Check and mate signs some programs copy from chess are read and dropped.
    while (this.at(k) === '+' || this.at(k) === '#') k++;
    const next = this.at(k);
    if (!isBoundary(next) && next !== '!' && next !== '?' && next !== '$' && next !== '□' && next !== '⨀') {
      return this.unknownWord(at, undefined);
    }
    this.advance(k);
    return { kind: 'move', text, ...at };
  }
}

/** Every token of a whole text. */
export function lexPdn(text: string): PdnToken[] {
  const lexer = new PdnLexer();
  lexer.push(text);
  lexer.end();
  const tokens: PdnToken[] = [];
  for (let t = lexer.next(); t; t = lexer.next()) tokens.push(t);
  return tokens;
}
