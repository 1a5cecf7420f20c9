// PDN in and out for simulated games. Reading takes the movetext of one game (tags, comments and
// move numbers are skipped); writing produces a PDN game with the tags a broadcast expects.
import { geometry, type Variant } from '../src/engine/index.ts';

export type GameResult = '2-0' | '0-2' | '1-1' | '*';

/** Move texts of one game's movetext, in order (`32-28`, `19x28`, `47x38x24`). */
export function moveTextsOf(pdn: string): string[] {
  const body = pdn
    .replace(/^\s*\[[^\]]*\]\s*$/gm, ' ') // tag pairs
    .replace(/\{[^}]*\}/g, ' ') // comments
    .replace(/\([^)]*\)/g, ' '); // variations (not nested)
  return body.match(/\b\d+(?:[-x:]\d+)+\b/gi) ?? [];
}

/** Splits a PDN file into its games (each starts at a tag section or follows a result token). */
export function splitPdnGames(text: string): string[] {
  const games: string[] = [];
  let current = '';
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*\[/.test(line) && /(?:^|\s)(?:2-0|0-2|1-1|0-0|\*)\s*$/.test(current.trim())) {
      games.push(current);
      current = '';
    }
    current += line + '\n';
  }
  if (moveTextsOf(current).length > 0 || /\[/.test(current)) games.push(current);
  return games.filter((g) => g.trim() !== '');
}

export interface PdnGameInfo {
  variant: Variant;
  moves: readonly string[];
  result: GameResult;
  white?: string;
  black?: string;
  event?: string;
  round?: string;
  date?: string;
}

/** A PDN game: seven-tag-like roster plus GameType, movetext wrapped at 80 columns. */
export function writePdn(info: PdnGameInfo): string {
  const tags: [string, string][] = [
    ['Event', info.event ?? 'damlink simulation'],
    ['Date', info.date ?? '????.??.??'],
    ['Round', info.round ?? '-'],
    ['White', info.white ?? 'Simulated White'],
    ['Black', info.black ?? 'Simulated Black'],
    ['Result', info.result],
    ['GameType', String(geometry(info.variant).gameType)],
  ];
  const tokens: string[] = [];
  info.moves.forEach((m, i) => {
    if (i % 2 === 0) tokens.push(`${i / 2 + 1}.`);
    tokens.push(m);
  });
  tokens.push(info.result);
  const lines: string[] = [];
  let line = '';
  for (const tok of tokens) {
    if (line && line.length + 1 + tok.length > 80) {
      lines.push(line);
      line = tok;
    } else line = line ? `${line} ${tok}` : tok;
  }
  if (line) lines.push(line);
  return `${tags.map(([k, v]) => `[${k} "${v.replace(/"/g, "'")}"]`).join('\n')}\n\n${lines.join('\n')}\n`;
}
