// Standings as CSV for spreadsheets and result sites: one header line, one player a line.
import type { StandingRow } from './standings.ts';
import { VALUED_TIEBREAKS as TIEBREAK_COLUMNS } from './types.ts';

/**
 * A field quoted when it holds a separator, a quote or a line break. Text that a spreadsheet would
 * take for a formula (`=`, `+`, `-`, `@`, a tab or a carriage return first) gets a leading `'`, as
 * OWASP advises for CSV exports; numbers stay numbers.
 */
export const csvField = (v: string | number): string => {
  const s = typeof v === 'string' && /^[=+\-@\t\r]/.test(v) ? `'${v}` : String(v);
  return /[",;\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
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
