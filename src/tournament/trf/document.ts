// The FIDE tournament report file (TRF16, TRF-2026) as lines: player lines (`001`) split into their
// fixed columns, every other line kept as it is. Reading then writing gives the same bytes for
// files that follow the published layout (numbers right-aligned, text left-aligned, no trailing
// spaces); what lies in no column is an error, so nothing is dropped quietly.
import { err, ok } from '../../result.ts';
import type { Read, TournamentError, TournamentErrorCode } from '../types.ts';

/** One round of a player line: opponent, colour, result code. */
export interface TrfCell {
  /** Starting rank; 0 written `0000`, null written blank (both: no opponent). */
  opponent: number | null;
  /** `w`, `b`, `-` or ` `. */
  colour: string;
  /** `1 = 0 + - W D L H F U Z` or ` `. */
  code: string;
}

export interface TrfPlayerLine {
  kind: 'player';
  line: number;
  start: number;
  sex: string;
  title: string;
  name: string;
  rating: string;
  federation: string;
  id: string;
  birth: string;
  points: string;
  rank: string;
  cells: readonly TrfCell[];
}

export interface TrfOtherLine {
  kind: 'other';
  line: number;
  /** The first three characters: `012`, `XXR`, `###`… */
  code: string;
  text: string;
}

export type TrfLine = TrfPlayerLine | TrfOtherLine;

export interface TrfDocument {
  lines: readonly TrfLine[];
  eol: '\n' | '\r\n' | '\r';
  /** The file ends with a line break. */
  finalEol: boolean;
}

/** 1-based first column, width, alignment of the fields before the rounds. */
const FIELDS = [
  ['start', 5, 4, 'right'],
  ['sex', 10, 1, 'left'],
  ['title', 11, 3, 'right'],
  ['name', 15, 33, 'left'],
  ['rating', 49, 4, 'right'],
  ['federation', 54, 3, 'left'],
  ['id', 58, 11, 'right'],
  ['birth', 70, 10, 'left'],
  ['points', 81, 4, 'right'],
  ['rank', 86, 4, 'right'],
] as const;

type TextField = Exclude<(typeof FIELDS)[number][0], 'start'>;

export const FIRST_ROUND_COLUMN = 92;
const CELL = 10;
export const RESULT_CODES = '1=0+-WDLHFUZ ';
const COLOURS = 'wb- ';

interface Located {
  line: number;
  file?: string;
}

function readCell(text: string, col: number, at: Located, errors: TournamentError[]): TrfCell {
  const slice = (from: number, width: number) => text.slice(from - 1, from - 1 + width).padEnd(width);
  const fail = (c: number, message: string) =>
    errors.push({ code: 'trf-bad-round', message, file: at.file, line: at.line, col: c });
  const opp = slice(col, 4);
  let opponent: number | null = null;
  if (opp.trim() !== '') {
    if (/^ *\d+$/.test(opp)) opponent = Number(opp);
    else fail(col, `opponent "${opp.trim()}" is not a starting rank`);
  }
  const colour = slice(col + 5, 1);
  if (!COLOURS.includes(colour)) fail(col + 5, `colour "${colour}" is none of w, b, -`);
  const code = slice(col + 7, 1);
  if (!RESULT_CODES.includes(code))
    fail(col + 7, `result "${code}" is none of ${RESULT_CODES.trim().split('').join(' ')}`);
  for (const gap of [col + 4, col + 6, col + 8, col + 9])
    if (slice(gap, 1) !== ' ') fail(gap, `"${slice(gap, 1)}" lies outside the round's columns`);
  return { opponent, colour, code };
}

function readPlayer(text: string, at: Located, errors: TournamentError[]): TrfPlayerLine | undefined {
  const before = errors.length;
  const fail = (col: number, code: TournamentErrorCode, message: string) =>
    errors.push({ code, message, file: at.file, line: at.line, col });
  const value: Record<string, string> = {};
  const covered = new Set<number>([1, 2, 3]);
  for (const [name, from, width] of FIELDS) {
    value[name] = text.slice(from - 1, from - 1 + width).trim();
    for (let c = from; c < from + width; c++) covered.add(c);
  }
  for (let c = 4; c < Math.min(text.length + 1, FIRST_ROUND_COLUMN); c++)
    if (!covered.has(c) && text[c - 1] !== ' ')
      fail(c, 'trf-misaligned', `"${text[c - 1]}" lies outside the player line's columns`);
  if (!/^\d+$/.test(value.start)) fail(5, 'trf-bad-start', `starting rank "${value.start}" is not a number`);
  if (value.rating !== '' && !/^\d+$/.test(value.rating))
    fail(49, 'trf-bad-rating', `rating "${value.rating}" is not a number`);
  if (value.points !== '' && !/^\d+(\.\d)?$/.test(value.points))
    fail(81, 'trf-bad-points', `points "${value.points}" are not a number like 4.5`);
  if (value.rank !== '' && !/^\d+$/.test(value.rank))
    fail(86, 'trf-bad-rank', `rank "${value.rank}" is not a number`);
  const cells: TrfCell[] = [];
  for (let col = FIRST_ROUND_COLUMN; col <= text.length; col += CELL)
    cells.push(readCell(text, col, at, errors));
  if (errors.length > before) return undefined;
  return {
    kind: 'player',
    line: at.line,
    start: Number(value.start),
    ...(Object.fromEntries(FIELDS.slice(1).map(([name]) => [name, value[name]])) as Record<
      TextField,
      string
    >),
    cells,
  };
}

export function readTrfDocument(text: string, file?: string): Read<TrfDocument> {
  const eol = text.includes('\r\n') ? '\r\n' : text.includes('\r') && !text.includes('\n') ? '\r' : '\n';
  const finalEol = text.endsWith(eol);
  const raw = text.split(eol);
  if (finalEol) raw.pop();
  const errors: TournamentError[] = [];
  const lines: TrfLine[] = [];
  raw.forEach((t, i) => {
    const at = { line: i + 1, file };
    if (t.startsWith('001')) {
      const p = readPlayer(t, at, errors);
      if (p) lines.push(p);
    } else lines.push({ kind: 'other', line: i + 1, code: t.slice(0, 3), text: t });
  });
  return errors.length > 0 ? err(errors) : ok({ lines, eol, finalEol });
}

/** Places `s` in a field of `width` columns, cut to fit: a longer value would shift every later column. */
const place = (s: string, width: number, align: 'left' | 'right'): string => {
  const fitted = s.slice(0, width);
  return align === 'right' ? fitted.padStart(width) : fitted.padEnd(width);
};

export function writePlayerLine(p: Omit<TrfPlayerLine, 'kind' | 'line'>): string {
  let out = '001';
  for (const [name, from, width, align] of FIELDS) {
    out = out.padEnd(from - 1);
    out += place(name === 'start' ? String(p.start) : p[name], width, align);
  }
  for (const [i, c] of p.cells.entries()) {
    out = out.padEnd(FIRST_ROUND_COLUMN - 1 + i * CELL);
    const opponent = c.opponent === null ? '' : c.opponent === 0 ? '0000' : String(c.opponent);
    out += `${place(opponent, 4, 'right')} ${c.colour} ${c.code}`;
  }
  return out.trimEnd();
}

export function writeTrfDocument(doc: TrfDocument): string {
  const text = doc.lines.map((l) => (l.kind === 'other' ? l.text : writePlayerLine(l))).join(doc.eol);
  return doc.finalEol ? text + doc.eol : text;
}
