// `damlink standings --trf FILE [--json|--csv] [--scale chess|draughts] [--tiebreaks LIST]`: standings
// from a TRF alone, with the code the daemon uses. Points on the draughts scale (a win 2).
import { readFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { formatLocated } from '../../src/result.ts';
import {
  readTrf,
  type StandingRow,
  standings,
  standingsCsv,
  TIEBREAKS,
  type Tiebreak,
  type ValuedTiebreak,
} from '../../src/tournament/index.ts';
import { workFailed } from '../failure.ts';

interface StandingsFlags {
  trf: string;
  json?: boolean;
  csv?: boolean;
  scale?: 'chess' | 'draughts';
  tiebreaks?: Tiebreak[];
}

/** `--tiebreaks solkoff,mutual,…`: names checked where they are read. */
const tiebreakList = (v: string): Tiebreak[] => {
  const names = v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bad = names.filter((n) => !TIEBREAKS.includes(n as Tiebreak));
  if (bad.length > 0)
    throw new InvalidArgumentError(`unknown tie-break ${bad.join(', ')} (one of ${TIEBREAKS.join(', ')})`);
  return names as Tiebreak[];
};

const COLUMNS: [ValuedTiebreak, string][] = [
  ['solkoff', 'Solk'],
  ['solkoff-truncated', 'Trunc'],
  ['median', 'Med'],
  ['sonneborn-berger', 'SB'],
  ['wins', 'Wins'],
  ['plus-minus', '+/-'],
];

/** A plain table for people: rank, start, name, points, the tie-breaks. */
export function standingsTable(rows: readonly StandingRow[]): string {
  const width = Math.max(4, ...rows.map((r) => r.name.length));
  const head = ['Rank', 'Start', 'Name'.padEnd(width), 'Pts', ...COLUMNS.map(([, h]) => h.padStart(5))];
  const lines = rows.map((r) =>
    [
      String(r.rank).padStart(4),
      String(r.start).padStart(5),
      r.name.padEnd(width),
      String(r.points).padStart(3),
      ...COLUMNS.map(([k]) => String(r.tiebreaks[k]).padStart(5)),
    ].join(' '),
  );
  return [head.join(' '), ...lines].join('\n');
}

export function registerStandings(program: Command): void {
  program
    .command('standings')
    .description('standings from a TRF file (TRF16, TRF-2026, lidraughts), points on the draughts scale')
    .requiredOption('--trf <file>', 'the TRF file')
    .option('--json', 'an array ranked best first: {rank, start, name, points, tiebreaks}')
    .option('--csv', 'CSV: a header line, then rank,start,name,group,points and the tie-breaks')
    .addOption(
      new Option('--scale <scale>', "the file's points (default: what the file says)").choices([
        'chess',
        'draughts',
      ]),
    )
    .option(
      '--tiebreaks <list>',
      `tie-breaks in order, comma-separated (${TIEBREAKS.join(', ')})`,
      tiebreakList,
    )
    .action((flags: StandingsFlags) => {
      let text: string;
      try {
        text = readFileSync(flags.trf, 'utf8');
      } catch (e) {
        throw workFailed(`cannot read ${flags.trf}: ${e instanceof Error ? e.message : String(e)}`);
      }
      const r = readTrf(text, { file: flags.trf, scale: flags.scale });
      if (!r.ok) throw workFailed(...r.error.map(formatLocated));
      const rows = standings(r.value.event, { tiebreaks: flags.tiebreaks });
      if (flags.json) {
        const doc = rows.map(({ rank, start, name, points, tiebreaks }) => ({
          rank,
          start,
          name,
          points,
          tiebreaks,
        }));
        console.log(JSON.stringify(doc, null, 2));
      } else if (flags.csv) process.stdout.write(standingsCsv(rows));
      else console.log(standingsTable(rows));
    });
}
