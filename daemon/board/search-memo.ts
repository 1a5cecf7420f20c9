// The tracker's memo of dump searches (a search that ended, with the lines it found) kept in the
// journal's rows: a replay that meets the same board against the same game takes the answer
// instead of searching again. A row that does not read is searched again.
import type { KnownSearch, SearchMemo } from '../../src/tracker/types.ts';
import type { SearchRow, SearchRows } from '../journal/index.ts';

export function searchMemoOf(rows: SearchRows): SearchMemo {
  return {
    known: (key) => {
      const row = rows.get(key);
      return row && knownSearch(row);
    },
    note: (key, search) =>
      rows.put(key, {
        steps: search.steps,
        nodes: search.nodes,
        found: search.found ? JSON.stringify(search.found) : null,
      }),
  };
}

function knownSearch(row: SearchRow): KnownSearch | undefined {
  if (row.found === null) return { steps: row.steps, nodes: row.nodes };
  const found = foundLines(row.found);
  return found ? { steps: row.steps, nodes: row.nodes, found } : undefined;
}

/** A row's found lines, or null when the text is not such lines. */
function foundLines(text: string): KnownSearch['found'] | null {
  try {
    const found = JSON.parse(text) as KnownSearch['found'];
    const line = (l: { moves?: unknown; underWay?: unknown }) =>
      Array.isArray(l?.moves) &&
      l.moves.every((m) => typeof m === 'string') &&
      typeof l.underWay === 'boolean';
    return found &&
      Array.isArray(found.lines) &&
      found.lines.every(line) &&
      typeof found.total === 'number' &&
      typeof found.complete === 'boolean'
      ? found
      : null;
  } catch {
    return null;
  }
}
