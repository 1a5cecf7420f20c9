// CSV as spreadsheets write it: `,` or `;` between fields (whichever the first line uses), fields in
// double quotes may hold either and `""` for a quote. Each row keeps its line number for messages.
import type { ParseError } from '../result.ts';

/** A CSV's one way of being unreadable: a quote never closed. */
type CsvError = ParseError<'csv-unclosed-quote'>;

export interface CsvRow {
  /** 1-based line the row starts on. */
  line: number;
  fields: readonly string[];
}

export interface CsvTable {
  /** The header's names, lower-cased and trimmed. */
  header: readonly string[];
  rows: readonly CsvRow[];
}

function separatorOf(firstLine: string): ',' | ';' {
  const outside = firstLine.replace(/"[^"]*"/g, '');
  return (outside.match(/;/g)?.length ?? 0) > (outside.match(/,/g)?.length ?? 0) ? ';' : ',';
}

/** Splits the text into rows; an unclosed quote is the only error. Blank lines are skipped. */
export function splitCsv(text: string, file?: string): { rows: CsvRow[]; error?: CsvError } {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const sep = separatorOf(body.split(/\r?\n/, 1)[0] ?? '');
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const endRow = () => {
    fields.push(field);
    if (fields.some((f) => f.trim() !== ''))
      rows.push({ line: rowLine, fields: fields.map((f) => f.trim()) });
    fields = [];
    field = '';
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === sep) {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += c;
  }
  if (quoted)
    return {
      rows,
      error: { code: 'csv-unclosed-quote', message: 'a quote is never closed', file, line: rowLine },
    };
  endRow();
  return { rows };
}

/** The first row as the header; the rest as data rows. */
export function readCsvTable(text: string, file?: string): { table: CsvTable; error?: CsvError } {
  const { rows, error } = splitCsv(text, file);
  const [head, ...rest] = rows;
  return { table: { header: (head?.fields ?? []).map((h) => h.toLowerCase()), rows: rest }, error };
}

/** A column by any of its accepted names; -1 when the header has none of them. */
export const columnOf = (header: readonly string[], names: readonly string[]): number =>
  header.findIndex((h) => names.includes(h));
