// `/rounds/<n>/standings.json` and `/rounds/<n>/standings` (HTML): the standings after round n,
// every group unless `?group=`. The HTML page speaks the language the request negotiates.
import { createHash } from 'node:crypto';
import {
  type Event,
  groupStandings,
  type StandingRow,
  VALUED_TIEBREAKS as TIEBREAK_COLUMNS,
} from '../../src/tournament/index.ts';
import { fill } from '../web/shared/i18n.js';

/** A language's message table (`shared/i18n/<lang>.js`). */
export type Messages = Readonly<Record<string, string>>;

export interface StandingsDocument {
  round: number;
  event: string;
  groups: { group?: string; rows: StandingRow[] }[];
}

/** The standings after `round` (its unfinished games left out); undefined for an unknown group. */
export function standingsAfter(event: Event, round: number, group?: string): StandingsDocument | undefined {
  const played = { ...event, rounds: event.rounds.filter((r) => r.number <= round) };
  const groups = groupStandings(played).filter((g) => group === undefined || g.group === group);
  if (groups.length === 0) return undefined;
  return { round, event: event.name, groups };
}

/** The page's words: the web's message tables, in the language the request chose. */
export interface PageWords {
  code: string;
  messages: Messages;
}

export const say = (words: PageWords, key: string, params?: Record<string, string | number>): string =>
  fill(words.messages[key] ?? key, params);

export const html = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function groupTable(words: PageWords, group: string | undefined, rows: readonly StandingRow[]): string {
  const head = [
    ...['rank', 'start', 'name', 'points'].map((k) => `tournament.col.${k}`),
    ...TIEBREAK_COLUMNS.map((k) => `tournament.tiebreak.${k}`),
  ];
  const th = head.map((k) => `<th scope="col">${html(say(words, k))}</th>`).join('');
  // Numbers as the reader writes them (a Polish reader expects 0,5, not 0.5).
  const number = new Intl.NumberFormat(words.code, { useGrouping: false });
  const cell = (c: string | number) => (typeof c === 'number' ? number.format(c) : c);
  const tr = rows
    .map((r) => {
      const cells = [r.rank, r.start, r.name, r.points, ...TIEBREAK_COLUMNS.map((k) => r.tiebreaks[k])];
      return `<tr>${cells.map((c) => `<td>${html(cell(c))}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const caption = group === undefined ? '' : `<caption>${html(group)}</caption>`;
  return `<table class="standings">${caption}<thead><tr>${th}</tr></thead>\n<tbody>\n${tr}\n</tbody></table>`;
}

export function standingsPage(doc: StandingsDocument, query: string, words: PageWords): string {
  const title = say(words, 'tournament.standingsAfter', { round: doc.round });
  return printedPage(
    words,
    doc.event,
    title,
    'standings-page',
    `${doc.groups.map((g) => groupTable(words, g.group, g.rows)).join('\n')}
<p class="screen-only"><a href="standings.json${html(query)}">${html(say(words, 'tournament.asJson'))}</a></p>`,
  );
}

/**
 * The wall sheets' layout, in the page itself: a published copy has no site stylesheet beside it.
 * A4 (794 px at 96 dpi, 186 mm inside the margins); fixed columns, so every group's table of a
 * sheet has the same widths; links are for the screen, not the wall.
 */
const SHEET_CSS = `
.standings-page { max-width: 794px; margin: 0 auto; padding: 0 0.5rem; box-sizing: border-box; font-family: system-ui, sans-serif; }
.standings-page table { width: 100%; table-layout: fixed; border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.8rem; }
.standings-page td, .standings-page th { padding: 0.15rem 0.3rem; text-align: left; overflow: hidden; text-overflow: ellipsis; }
.standings-page th { white-space: normal; vertical-align: bottom; font-size: 0.8rem; }
.standings-page caption { text-align: left; font-weight: 700; padding: 0.3rem 0; }
table.standings td:nth-child(3) { white-space: nowrap; }
table.standings th:nth-child(-n+2) { width: 2.8em; }
table.standings th:nth-child(3) { width: 34%; }
table.pairings th:first-child { width: 3em; }
table.pairings th:nth-child(3) { width: 5em; }
.pairings-page td.score { text-align: center; }
.pairings-page section { break-inside: avoid; }
@media print {
  @page { size: A4; margin: 12mm; }
  .standings-page { max-width: none; padding: 0; font-size: 10pt; }
  .standings-page table { font-size: 9pt; }
  .standings-page td, .standings-page th { padding: 0.1rem 0.3rem; border-bottom: 1px solid #999; }
  .screen-only { display: none; }
}
`;

/** The pages' Content-Security-Policy lets this one inline style in by its hash, and no other. */
export const SHEET_STYLE_SOURCE = `'sha256-${createHash('sha256').update(SHEET_CSS).digest('base64')}'`;

/** A page for the hall's wall (A4): `Event — title` and its body. */
export function printedPage(
  words: PageWords,
  event: string,
  title: string,
  kind: string,
  body: string,
): string {
  const heading = event ? `${html(event)} — ${html(title)}` : html(title);
  return `<!doctype html>
<html lang="${html(words.code)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading}</title>
<link rel="stylesheet" href="/style.css">
<style>${SHEET_CSS}</style>
</head>
<body class="${kind}">
<h1>${heading}</h1>
${body}
</body>
</html>
`;
}
