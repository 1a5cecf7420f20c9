// Swiss rounds paired by an external program, the way lidraughts calls bbpPairings: each group is
// a Swiss of its own (src/tournament/groups.ts), so damlink writes one TRF-2026 per group (the
// rounds before the one to pair and that round's requested byes, `142` the rounds planned, `152`
// the first colour, `162` the points), runs the program on it and reads the pairs it wrote; the
// groups' tables are numbered on in the event's group order. No shell: the command's words are
// the program and its arguments, `{in}` and `{out}` the two files (without `{in}`, bbpPairings'
// own arguments `--dutch {in} -p {out}` are added). Exit codes as bbpPairings' README gives them.
import { execFile } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { err } from '../../src/result.ts';
import {
  type Bye,
  type Side,
  crossGroupPairings,
  firstColourUsed,
  type Event,
  type GroupEvent,
  groupEvent,
  groupsOf,
  joinGroupRounds,
  type Read,
  type Round,
  readPairingOutput,
  roundOf,
  writeTrf,
} from '../../src/tournament/index.ts';
import { type TournamentAccess, withCalls } from './access.ts';
import type { TournamentStore } from './store.ts';

/** bbpPairings' Dutch system: `bbpPairings --dutch {in} -p {out}`. */
export const DEFAULT_PAIRING_ARGS = ['--dutch', '{in}', '-p', '{out}'];

/** Rounds planned when neither the tournament nor the config says (the local regulations' seven). */
export const DEFAULT_PLANNED_ROUNDS = 7;

export interface PairingSettings {
  /** The program and its arguments (`tournament.pairingProgram`, `--pairing-program`). */
  command: string;
  /** Rounds planned when the tournament does not say (`tournament.rounds`). */
  rounds?: number;
  /** The top seed's colour in round 1 when the tournament does not say: a colour, or drawn by lot. */
  firstColour?: Side | 'lot';
  /** A pairing may seat players of two groups at one table (`tournament.groupsTogether`). */
  groupsTogether?: boolean;
  /** Players of one club never meet (an `XXP` line per club). */
  clubsApart?: boolean;
  /** Players who never meet (a family), by starting rank: an `XXP` line each. */
  keepApart?: ReadonlyArray<readonly number[]>;
  /** Draws the first colour (tests); default a fair coin. */
  lot?: () => Side;
  timeoutMs?: number;
}

/** What bbpPairings' exit codes mean (its README's "Error codes"). */
const EXIT_MEANING: Record<number, string> = {
  2: 'it met an unexpected error',
  3: 'it refused the tournament file as invalid',
  4: 'the tournament is too large for it',
  5: 'it could not read or write its files',
};

const failed = (message: string): Read<Round> => err([{ code: 'pairing-program', message }]);

/**
 * The round's byes asked for (half, full, zero, absent), and an absence for every player withdrawn
 * by then who has none: the program pairs everyone else.
 */
export function requestedByes(event: Event, round: number): Bye[] {
  const asked = (roundOf(event, round)?.byes ?? []).filter((b) => b.kind !== 'pairing');
  const has = new Set(asked.map((b) => b.player));
  const gone = event.players
    .filter((p) => p.withdrawn !== undefined && p.withdrawn <= round && !has.has(p.start))
    .map((p): Bye => ({ player: p.start, kind: 'absent' }));
  return [...asked, ...gone];
}

/** The event as the program must see it before pairing `round`: earlier rounds, that round's requested byes. */
export function eventBefore(event: Event, round: number): Event {
  const planned = Math.max(event.plannedRounds ?? round, round);
  const requested = requestedByes(event, round);
  const earlier = event.rounds.filter((r) => r.number < round);
  return {
    ...event,
    plannedRounds: planned,
    rounds: requested.length > 0 ? [...earlier, { number: round, pairings: [], byes: requested }] : earlier,
  };
}

/**
 * The event with what a pairing program needs and the organiser did not give: the rounds planned
 * (the config's, else seven) and the first colour (the config's, else drawn by lot). The caller
 * keeps it, so the lot is drawn once and every later round and the TRF export say the same.
 */
export function readyToPair(event: Event, settings: Omit<PairingSettings, 'command'>): Event {
  const plannedRounds = event.plannedRounds ?? settings.rounds ?? DEFAULT_PLANNED_ROUNDS;
  const chosen = settings.firstColour ?? 'lot';
  const firstColour =
    firstColourUsed(event) ??
    (chosen === 'lot' ? (settings.lot ?? (() => (randomInt(2) === 0 ? 'white' : 'black')))() : chosen);
  return { ...event, plannedRounds, firstColour };
}

/**
 * Pairs `round` of every group (or of `only`), each with its own TRF; the other groups keep the
 * round's pairings they have. Refuses pairings across groups unless the groups play together.
 */
export async function pairRound(
  settings: PairingSettings,
  event: Event,
  round: number,
  only?: string,
): Promise<Read<Round>> {
  if (!settings.groupsTogether) {
    const cross = crossGroupPairings(event, round - 1)[0];
    if (cross) {
      const name = (start: number) => event.players.find((p) => p.start === start)?.name ?? `#${start}`;
      const { pairing: p, groups } = cross;
      return failed(
        `round ${cross.round} table ${p.table} seats ${name(p.white)} (${groups[0] ?? 'no group'}) against ${name(p.black)} (${groups[1] ?? 'no group'}): the groups play apart (set tournament.groupsTogether if they play together)`,
      );
    }
  }
  const views = settings.groupsTogether
    ? [groupEvent({ ...event, players: event.players.map(({ group: _, ...p }) => p) }, undefined)]
    : groupsOf(event).map((g) => groupEvent(event, g));
  const parts: Array<{ view: GroupEvent; round: Round }> = [];
  for (const view of views) {
    if (view.event.players.length === 0) continue;
    const mine = only === undefined || view.group === only;
    const existing = roundOf(view.event, round) ?? { number: round, pairings: [], byes: [] };
    if (!mine) {
      parts.push({ view, round: existing });
      continue;
    }
    const paired = await runProgram(settings, view, round);
    if (!paired.ok) return paired;
    // The byes asked for (half, full, zero, absent) stay beside the program's pairs and its bye.
    const requested = requestedByes(view.event, round);
    parts.push({ view, round: { ...paired.value, byes: [...paired.value.byes, ...requested] } });
  }
  if (only !== undefined && !views.some((v) => v.group === only))
    return failed(`no group ${only} in the tournament`);
  return { ok: true, value: joinGroupRounds(round, parts) };
}

/**
 * bbpPairings' forbidden pairs (`XXP` lines, the players' numbers in the group's file): the players
 * of one club when clubs are kept apart, and each list of players kept apart, as far as they are
 * in the group.
 */
export function forbiddenLines(
  view: GroupEvent,
  settings: Pick<PairingSettings, 'clubsApart' | 'keepApart'>,
): string[] {
  const local = new Map(view.startOf.map((start, i) => [start, i + 1]));
  const sets: number[][] = [];
  if (settings.clubsApart) {
    const clubs = new Map<string, number[]>();
    for (const p of view.event.players)
      if (p.club) clubs.set(p.club, [...(clubs.get(p.club) ?? []), p.start]);
    sets.push(...clubs.values());
  }
  for (const list of settings.keepApart ?? [])
    sets.push(list.flatMap((start) => (local.has(start) ? [local.get(start)!] : [])));
  return sets.filter((ids) => ids.length >= 2).map((ids) => `XXP ${ids.join(' ')}`);
}

/** One group's round by the program. */
function runProgram(settings: PairingSettings, view: GroupEvent, round: number): Promise<Read<Round>> {
  const [program, ...given] = settings.command.trim().split(/\s+/);
  if (!program) return Promise.resolve(failed('no pairing program configured'));
  const which = view.group === undefined ? '' : ` of group ${view.group}`;
  const dir = mkdtempSync(join(tmpdir(), 'damlink-pairing-'));
  const input = join(dir, 'tournament.trf');
  const output = join(dir, 'pairs.txt');
  const apart = forbiddenLines(view, settings);
  writeFileSync(input, writeTrf(eventBefore(view.event, round)) + apart.map((l) => `${l}\n`).join(''));
  // A command that does not place the files itself gets bbpPairings' arguments.
  const words = given.some((a) => a.includes('{in}')) ? given : [...given, ...DEFAULT_PAIRING_ARGS];
  const args = words.map((a) => a.replace('{in}', input).replace('{out}', output));
  return new Promise<Read<Round>>((resolve) => {
    execFile(program, args, { timeout: settings.timeoutMs ?? 60_000 }, (e, _stdout, stderr) => {
      if (e) {
        const why = stderr.trim().split('\n').at(-1) || e.message;
        const code = typeof e.code === 'number' ? e.code : undefined;
        if (code === 1) {
          resolve(
            failed(
              `no pairing of round ${round}${which} keeps the rules (${program} found none: players who have all met each other, or colours that cannot be given): pair the round by hand with a CSV of pairings`,
            ),
          );
          return;
        }
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
          resolve(
            failed(
              `cannot run ${program}: no such program (docs/tournament.md says where to get bbpPairings)`,
            ),
          );
          return;
        }
        const meaning = code !== undefined ? EXIT_MEANING[code] : undefined;
        resolve(
          failed(`${program} could not pair round ${round}${which}${meaning ? `: ${meaning}` : ''} (${why})`),
        );
        return;
      }
      let text: string;
      try {
        text = readFileSync(output, 'utf8');
      } catch {
        resolve(failed(`${program} wrote no pairs for round ${round}${which}`));
        return;
      }
      resolve(readPairingOutput(text, view.event.players, round, `${program} output${which}`));
    });
  }).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/**
 * The store, with rounds paired by the program (the server's tournament calls use both). What the
 * pairing needed and the organiser did not give (rounds planned, the first colour) is kept in the
 * tournament before the program runs.
 */
export function withPairingProgram(
  store: TournamentStore,
  settings: PairingSettings | undefined,
): TournamentAccess {
  if (!settings) return store;
  return withCalls(store, {
    pairRound: (event: Event, round: number, group?: string) => {
      const ready = readyToPair(event, settings);
      if (ready.plannedRounds !== event.plannedRounds || ready.firstColour !== event.firstColour)
        store.save(ready);
      return pairRound(settings, ready, round, group);
    },
  });
}
