// PDN tokens with their line and column: tags, comments, variations, move numbers, moves, NAGs,
// results. Never throws: what cannot be read becomes an `unknown` token that the reader reports.

export type PdnToken =
  | { kind: 'tag'; name: string; value: string; line: number; col: number; valueCol: number }
  | { kind: 'comment'; text: string; line: number; col: number }
  | { kind: 'open' | 'close'; line: number; col: number }
  | { kind: 'number'; text: string; line: number; col: number }
  | { kind: 'move'; text: string; line: number; col: number }
  | { kind: 'nag'; nag: number; line: number; col: number }
  | { kind: 'result'; text: string; line: number; col: number }
  | { kind: 'unknown'; text: string; line: number; col: number; message: string };

/** `!`, `?`… written after a move, as the NAGs they stand for. */
const SUFFIX_NAG: Record<string, number> = { '!': 1, '?': 2, '!!': 3, '??': 4, '!?': 5, '?!': 6 };
const RESULT = /^(2-0|0-2|1-1|1-0|0-1|1\/2-1\/2|½-½|0-0|\*)$/;
const MOVE = /^(\d+(?:[-x:]\d+)+)([!?]{1,2})?[+#]?$/i;
const NUMBER = /^\d+\.+/;
const DELIMITERS = new Set(['{', '}', '(', ')', '[', ']', ';']);

export function lexPdn(text: string): PdnToken[] {
  const tokens: PdnToken[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const col = (at: number) => at - lineStart + 1;
  const advanceTo = (end: number) => {
    for (; i < end; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
  };

  while (i < text.length) {
    const c = text[i];
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r' || c === '\f' || c === '\ufeff') {
      advanceTo(i + 1);
      continue;
    }
    if (c === '%' && i === lineStart) {
      // Escape line: ignored to the end of the line.
      const end = text.indexOf('\n', i);
      advanceTo(end < 0 ? text.length : end);
      continue;
    }
    const at = { line, col: col(i) };
    if (c === ';') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      tokens.push({ kind: 'comment', text: text.slice(i + 1, stop).trim(), ...at });
      advanceTo(stop);
      continue;
    }
    if (c === '{') {
      const end = text.indexOf('}', i + 1);
      if (end < 0) {
        tokens.push({ kind: 'unknown', text: '{', message: 'comment is never closed with "}"', ...at });
        advanceTo(text.length);
        continue;
      }
      tokens.push({ kind: 'comment', text: text.slice(i + 1, end).trim(), ...at });
      advanceTo(end + 1);
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ kind: c === '(' ? 'open' : 'close', ...at });
      advanceTo(i + 1);
      continue;
    }
    if (c === '[') {
      const m = /^\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]/.exec(text.slice(i, i + 10_000));
      if (!m) {
        const end = text.indexOf('\n', i);
        const stop = end < 0 ? text.length : end;
        tokens.push({
          kind: 'unknown',
          text: text.slice(i, stop),
          message: 'a tag is written [Name "value"]',
          ...at,
        });
        advanceTo(stop);
        continue;
      }
      const valueCol = col(i + m[0].indexOf('"') + 1);
      tokens.push({ kind: 'tag', name: m[1], value: m[2].replace(/\\(.)/g, '$1'), valueCol, ...at });
      advanceTo(i + m[0].length);
      continue;
    }
    // A word: up to whitespace or a delimiter.
    let end = i;
    while (end < text.length && !/\s/.test(text[end]) && !DELIMITERS.has(text[end])) end++;
    if (end === i) {
      tokens.push({ kind: 'unknown', text: c, message: `unexpected "${c}"`, ...at });
      advanceTo(i + 1);
      continue;
    }
    lexWord(text.slice(i, end), at.line, at.col, tokens);
    advanceTo(end);
  }
  return tokens;
}

function lexWord(word: string, line: number, col: number, out: PdnToken[]): void {
  while (word.length > 0) {
    if (RESULT.test(word)) {
      out.push({ kind: 'result', text: word, line, col });
      return;
    }
    const number = NUMBER.exec(word);
    if (number) {
      out.push({ kind: 'number', text: number[0], line, col });
      word = word.slice(number[0].length);
      col += number[0].length;
      continue;
    }
    if (/^\.+$/.test(word)) return; // `1. ... 19-23`
    if (/^\$\d+$/.test(word)) {
      out.push({ kind: 'nag', nag: Number(word.slice(1)), line, col });
      return;
    }
    const move = MOVE.exec(word);
    if (move) {
      out.push({ kind: 'move', text: move[1], line, col });
      if (move[2]) out.push({ kind: 'nag', nag: SUFFIX_NAG[move[2]] ?? 0, line, col: col + move[1].length });
      return;
    }
    if (SUFFIX_NAG[word] !== undefined) {
      out.push({ kind: 'nag', nag: SUFFIX_NAG[word], line, col });
      return;
    }
    out.push({
      kind: 'unknown',
      text: word,
      message: `"${word}" is not a move, move number or result`,
      line,
      col,
    });
    return;
  }
}
