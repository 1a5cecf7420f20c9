// PDN writing, lidraughts-compatible: stable tag order (Event, Site, Date, Round, White, Black,
// Result, GameType, then the others as given, then SetUp/FEN when the start is not the initial
// position), move numbers, NAGs, `{comments}`, lines under 80 characters, the result.
import { parseFen, writeFen } from './fen.ts';
import type { PdnResult } from './pdn.ts';
import { variantOfGameType } from './pdn.ts';
import { Position } from './position.ts';
import { geometry, type Variant } from './variant.ts';

export interface PdnGameToWrite {
  /** Any tags; Result, GameType, FEN and SetUp are written from the other fields. */
  tags: Record<string, string | number | undefined>;
  /** The start position's FEN; omitted or initial → no FEN tag. */
  startFen?: string;
  /** Used when `tags.GameType` is absent (default international). */
  variant?: Variant;
  /** Each move's text, its NAGs (written `$n`) and its comment. */
  moves: ReadonlyArray<{ text: string; comment?: string; nags?: readonly number[] }>;
  /** A comment before the first move (what happened before it was played). */
  comment?: string;
  result: PdnResult;
}

const LINE_WIDTH = 80;
const ROSTER: ReadonlyArray<[string, string]> = [
  ['Event', '?'],
  ['Site', '?'],
  ['Date', '????.??.??'],
  ['Round', '?'],
  ['White', '?'],
  ['Black', '?'],
];
const WRITTEN_APART = new Set(['Result', 'GameType', 'FEN', 'SetUp']);

/**
 * A tag value as a PDN string: `\` and `"` escaped, and control characters (a name typed with a
 * line break or a tab) written as one space, since a string may not span lines.
 */
const quote = (v: string) =>
  `"${v
    .replace(/\r\n|[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')}"`;
/** A `}` would close the comment early. */
const commentSafe = (text: string) => text.replace(/\}/g, ')').replace(/\{/g, '(');

/** One game as PDN text, ending with a newline. */
export function writePdnGame(game: PdnGameToWrite): string {
  const given = (k: string) => {
    const v = game.tags[k];
    return v === undefined || v === '' ? undefined : String(v);
  };
  const gameType = given('GameType');
  const variant = (gameType && variantOfGameType(gameType)) || game.variant || 'international';
  const start = game.startFen ? parseFen(game.startFen, { variant }) : undefined;
  const isInitial = !start || (start.ok && start.value.equals(Position.initial(variant)));
  const blackFirst = start?.ok === true && start.value.turn === 'black';

  const tags: Array<[string, string]> = ROSTER.map(([k, fallback]) => [k, given(k) ?? fallback]);
  tags.push(['Result', game.result], ['GameType', gameType ?? String(geometry(variant).gameType)]);
  for (const [k, v] of Object.entries(game.tags)) {
    if (v === undefined || WRITTEN_APART.has(k) || ROSTER.some(([r]) => r === k)) continue;
    tags.push([k, String(v)]);
  }
  if (!isInitial && game.startFen) {
    // lidraughts drops ranges (`31-50`): always write comma lists.
    tags.push(['SetUp', '1'], ['FEN', start?.ok ? writeFen(start.value) : game.startFen.trim()]);
  }

  const words: string[] = game.comment ? [`{${commentSafe(game.comment)}}`] : [];
  game.moves.forEach((m, i) => {
    const half = i + (blackFirst ? 1 : 0);
    const number = Math.floor(half / 2) + 1;
    if (half % 2 === 0) words.push(`${number}.`);
    else if (i === 0) words.push(`${number}...`);
    words.push(m.text);
    for (const nag of m.nags ?? []) words.push(`$${nag}`);
    if (m.comment !== undefined && m.comment !== '') words.push(`{${commentSafe(m.comment)}}`);
  });
  words.push(game.result);

  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > LINE_WIDTH) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return `${tags.map(([k, v]) => `[${k} ${quote(v)}]`).join('\n')}\n\n${lines.join('\n')}\n`;
}

/** Several games, one blank line between them (a round's `games.pdn`). */
export function writePdn(games: readonly PdnGameToWrite[]): string {
  return games.map(writePdnGame).join('\n');
}
