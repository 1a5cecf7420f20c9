// Swiss rounds paired by an external program, the way lidraughts calls bbpPairings: damlink
// writes the tournament as TRF-2026 (the rounds before the one to pair, `142` the rounds planned),
// runs the program and reads the pairs it wrote. No shell: the command's words are the program
// and its arguments, `{in}` and `{out}` the two files (without `{in}`, bbpPairings' own arguments
// `--dutch {in} -p {out}` are added).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { err } from '../../src/result.ts';
import type { TournamentAccess } from '../server/tournament-api.ts';
import type { TournamentStore } from './store.ts';
import {
  type Event,
  type Read,
  type Round,
  readPairingOutput,
  writeTrf,
} from '../../src/tournament/index.ts';

/** bbpPairings' Dutch system: `bbpPairings --dutch {in} -p {out}`. */
export const DEFAULT_PAIRING_ARGS = ['--dutch', '{in}', '-p', '{out}'];

const failed = (message: string): Read<Round> => err([{ code: 'pairing-program', message }]);

/** The event as the program must see it before pairing `round`. */
export function eventBefore(event: Event, round: number): Event {
  const planned = Math.max(event.plannedRounds ?? round, round);
  return { ...event, plannedRounds: planned, rounds: event.rounds.filter((r) => r.number < round) };
}

export function pairWithProgram(
  command: string,
  event: Event,
  round: number,
  timeoutMs = 60_000,
): Promise<Read<Round>> {
  const [program, ...given] = command.trim().split(/\s+/);
  if (!program) return Promise.resolve(failed('no pairing program configured'));
  const dir = mkdtempSync(join(tmpdir(), 'damlink-pairing-'));
  const input = join(dir, 'tournament.trf');
  const output = join(dir, 'pairs.txt');
  writeFileSync(input, writeTrf(eventBefore(event, round)));
  // A command that does not place the files itself gets bbpPairings' arguments.
  const words = given.some((a) => a.includes('{in}')) ? given : [...given, ...DEFAULT_PAIRING_ARGS];
  const args = words.map((a) => a.replace('{in}', input).replace('{out}', output));
  return new Promise<Read<Round>>((resolve) => {
    execFile(program, args, { timeout: timeoutMs }, (e, _stdout, stderr) => {
      if (e) {
        const why = stderr.trim().split('\n').at(-1) || e.message;
        resolve(failed(`${program} failed: ${why}`));
        return;
      }
      let text: string;
      try {
        text = readFileSync(output, 'utf8');
      } catch {
        resolve(failed(`${program} wrote no pairs`));
        return;
      }
      resolve(readPairingOutput(text, event.players, round, `${program} output`));
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** The store, with rounds paired by `command` (the server's tournament calls use both). */
export function withPairingProgram(store: TournamentStore, command: string | undefined): TournamentAccess {
  if (!command) return store;
  return {
    load: () => store.load(),
    save: (event) => store.save(event),
    saveRound: (round) => store.saveRound(round),
    setResult: (round, table, result) => store.setResult(round, table, result),
    savePlayer: (player) => store.savePlayer(player),
    sync: () => store.sync(),
    pairRound: (event, round) => pairWithProgram(command, event, round),
  };
}
