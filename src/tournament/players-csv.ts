// A CSV of players, one a row, with a header naming the columns (any order, any case): `name`
// ("Last, First") is required; `start`, `fmjd`, `rating`, `federation`, `club`, `title`, `birth`,
// `sex`, `group` are optional. Without a `start` column players are numbered in file order.
import { err, ok } from '../result.ts';
import { hasControlCharacter } from '../text.ts';
import { type CsvRow, columnOf, readCsvTable } from './csv.ts';
import type { Player, Read, TournamentError, TournamentErrorCode } from './types.ts';

const COLUMNS = {
  start: ['start', 'rank', 'nr', 'no', 'number'],
  name: ['name', 'player'],
  fmjdId: ['fmjd', 'fmjd id', 'fmjd_id', 'fmjdid', 'id'],
  rating: ['rating', 'elo'],
  federation: ['federation', 'fed', 'country'],
  club: ['club'],
  title: ['title'],
  birth: ['birth', 'born', 'birth year', 'year'],
  sex: ['sex'],
  group: ['group', 'section'],
} as const;

type Field = keyof typeof COLUMNS;
const TEXT_FIELDS = ['fmjdId', 'federation', 'club', 'title', 'birth', 'sex', 'group'] as const;

const wholeNumber = (s: string): number | undefined => (/^\d+$/.test(s) ? Number(s) : undefined);

function playerOf(
  row: CsvRow,
  at: Record<Field, number>,
  defaultStart: number,
  file: string | undefined,
): { player?: Player; errors: TournamentError[] } {
  const cell = (f: Field): string => (at[f] >= 0 ? (row.fields[at[f]] ?? '') : '');
  const errors: TournamentError[] = [];
  const fail = (code: TournamentErrorCode, message: string) =>
    errors.push({ code, message, file, line: row.line });
  const name = cell('name');
  if (name === '') fail('player-without-name', 'a player without a name');
  const broken = row.fields.find((f) => hasControlCharacter(f));
  if (broken !== undefined)
    fail(
      'control-character',
      `"${broken.replace(/[\p{Cc}\u2028\u2029]/gu, ' ')}": control characters (a line break, a tab) are not allowed`,
    );
  const start = at.start >= 0 ? wholeNumber(cell('start')) : defaultStart;
  if (start === undefined || start < 1)
    fail('bad-start', `starting rank "${cell('start')}" is not a number from 1`);
  const ratingText = cell('rating');
  const rating = ratingText === '' ? undefined : wholeNumber(ratingText);
  if (ratingText !== '' && rating === undefined)
    fail('bad-rating', `rating "${ratingText}" is not a whole number`);
  if (errors.length > 0) return { errors };
  const player: Player = { start: start!, name };
  const extra: Partial<Record<(typeof TEXT_FIELDS)[number], string>> = {};
  for (const f of TEXT_FIELDS) if (cell(f) !== '') extra[f] = cell(f);
  return { player: { ...player, ...(rating === undefined ? {} : { rating }), ...extra }, errors };
}

export function readPlayersCsv(text: string, file?: string): Read<Player[]> {
  const { table, error } = readCsvTable(text, file);
  if (error) return err([error]);
  const at = Object.fromEntries(
    Object.entries(COLUMNS).map(([f, names]) => [f, columnOf(table.header, names)]),
  ) as Record<Field, number>;
  if (at.name < 0)
    return err([{ code: 'no-name-column', message: 'the header has no "name" column', file, line: 1 }]);
  const errors: TournamentError[] = [];
  const players: Player[] = [];
  const lineOfStart = new Map<number, number>();
  // Groups named in the file: a row without one would be a player in no group (a bye each round).
  const grouped = at.group >= 0 && table.rows.some((row) => (row.fields[at.group] ?? '') !== '');
  table.rows.forEach((row, i) => {
    if (row.fields.length < table.header.length) {
      const missing = table.header.slice(row.fields.length).join('", "');
      errors.push({
        code: 'short-row',
        message: `${row.fields.length} field${row.fields.length === 1 ? '' : 's'} where the header has ${table.header.length}: no "${missing}"`,
        file,
        line: row.line,
      });
      return;
    }
    if (grouped && (row.fields[at.group] ?? '') === '')
      errors.push({
        code: 'no-group',
        message: `${row.fields[at.name] || 'a player'} has no group, and the file's players have groups`,
        file,
        line: row.line,
      });
    const r = playerOf(row, at, i + 1, file);
    errors.push(...r.errors);
    if (!r.player) return;
    const seen = lineOfStart.get(r.player.start);
    if (seen !== undefined) {
      errors.push({
        code: 'duplicate-start',
        message: `starting rank ${r.player.start} is taken already (line ${seen})`,
        file,
        line: row.line,
      });
      return;
    }
    lineOfStart.set(r.player.start, row.line);
    players.push(r.player);
  });
  return errors.length > 0 ? err(errors) : ok(players.sort((a, b) => a.start - b.start));
}
