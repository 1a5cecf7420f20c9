// Standings as CSV for spreadsheets and result sites: one header line, one player a line.
import { withoutControlCharacters } from '../text.ts';
import type { StandingRow } from './standings.ts';
import { VALUED_TIEBREAKS as TIEBREAK_COLUMNS } from './types.ts';

/**
 * A field quoted when it holds a separator or a quote. Control characters (a line break, a tab, a
 * vertical tab or file separator a TRF may carry) become spaces: one row stays one row in every
 * reader. Text that a spreadsheet would take for a formula (`=`, `+`, `-`, `@` first) gets a leading
 * `'`, as OWASP advises for CSV exports; numbers stay numbers.
 */
export const csvField = (v: string | number): string => {
  if (typeof v !== 'string') return String(v);
  const text = withoutControlCharacters(v);
  const s = /^\s*[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function standingsCsv(rows: readonly StandingRow[]): string {
  const header = ['rank', 'start', 'name', 'group', 'points', ...TIEBREAK_COLUMNS];
  const lines = rows.map((r) =>
    [r.rank, r.start, r.name, r.group ?? '', r.points, ...TIEBREAK_COLUMNS.map((t) => r.tiebreaks[t])]
      .map(csvField)
      .join(','),
  );
  return [header.join(','), ...lines].map((l) => `${l}\n`).join('');
}
