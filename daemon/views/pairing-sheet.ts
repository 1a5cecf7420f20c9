// `/rounds/<n>/pairings` (HTML): the pairing sheet of round n for the hall's wall — a table per
// group (or the group asked for), table, White, result, Black, then the round's byes — printable on
// A4 (docs/tournament.md), in the language the request negotiates.
import { type Event, formatResult, groupsOf, roundOf } from '../../src/tournament/index.ts';
import { html, type PageWords, printedPage, say } from './standings.ts';

/** The sheet, or undefined when the round has no pairings or byes (or no such group). */
export function pairingSheet(
  event: Event,
  round: number,
  words: PageWords,
  group?: string,
): string | undefined {
  const r = roundOf(event, round);
  if (!r || (r.pairings.length === 0 && r.byes.length === 0)) return undefined;
  const player = new Map(event.players.map((p) => [p.start, p]));
  const groups = groupsOf(event).filter((g) => group === undefined || g === group);
  if (groups.length === 0) return undefined;
  const name = (start: number) => {
    const p = player.get(start);
    return p ? `${p.name} (${start})` : String(start);
  };
  const sections = groups.map((g) => {
    const mine = (start: number) => player.get(start)?.group === g;
    const rows = r.pairings
      .filter((p) => mine(p.white))
      .map(
        (p) =>
          `<tr><td>${p.table}</td><td>${html(name(p.white))}</td><td class="score">${html(formatResult(p.result) || '–')}</td><td>${html(name(p.black))}</td></tr>`,
      )
      .join('\n');
    const byes = r.byes
      .filter((b) => mine(b.player))
      .map((b) => `${name(b.player)}: ${say(words, `tournament.bye.${b.kind}`)}`);
    const caption = g === undefined ? '' : `<caption>${html(g)}</caption>`;
    const head = ['tournament.col.table', 'side.white', 'tournament.col.result', 'side.black']
      .map((k) => `<th scope="col">${html(say(words, k))}</th>`)
      .join('');
    const byeLine =
      byes.length > 0
        ? `<p class="byes">${html(say(words, 'tournament.byes', { list: byes.join('; ') }))}</p>`
        : '';
    return `<section><table class="pairings">${caption}<thead><tr>${head}</tr></thead>\n<tbody>\n${rows}\n</tbody></table>${byeLine}</section>`;
  });
  const title = say(words, 'tournament.pairingsOfRound', { round });
  return printedPage(words, event.name, title, 'standings-page pairings-page', sections.join('\n'));
}
