// `--tournament FILE` read before anything starts: a file that cannot be read or parsed is bad
// usage (exit 2), each problem on its own line with its place.
import { readFileSync } from 'node:fs';
import { formatLocated } from '../../src/result.ts';
import { type Event, readTournament } from '../../src/tournament/index.ts';
import { usageError } from '../failure.ts';

export function readTournamentFile(file: string): Event {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw usageError(`--tournament: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const r = readTournament(text, { file });
  if (!r.ok) throw usageError(...r.error.map((e) => `--tournament ${formatLocated(e)}`));
  return r.value;
}
