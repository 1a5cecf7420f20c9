// The tournament over the API: `GET /api/v1/tournament` for the console's pages, and the arbiter's
// calls that change it — a table's result, a round's pairings, the players from CSV or one player.
// Each change is answered once it is on the disk, as the journal's arbiter calls are.
import { z } from 'zod';
import { formatLocated } from '../../src/result.ts';
import {
  type Event,
  eventOfPlayers,
  type Player,
  parseResult,
  readPairingsCsv,
  readPlayerJson,
  readPlayersCsv,
  editRound,
  roundOf,
} from '../../src/tournament/index.ts';
import { hasControlCharacter } from '../config/text.ts';
import { checkGroups } from '../tournament/settings.ts';
import type { ErrorCode } from './protocol.ts';
import type { TournamentAccess } from '../tournament/access.ts';

const token = z.string().max(500).optional();
const roundNumber = z.number().int().positive();
const csv = z.string().max(512 * 1024);

const PARAMS = {
  // The whole event, the players' personal data included (the public JSON leaves it out).
  tournament: z.object({ token }).default({}),
  'table-result': z.object({
    round: roundNumber,
    table: z.number().int().positive(),
    result: z.string().max(20),
    token,
  }),
  pairings: z.object({ round: roundNumber, csv, token }),
  players: z.object({ csv, token }),
  'edit-pairings': z.object({
    round: roundNumber,
    edit: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('swap-colours'), table: z.number().int().positive() }),
      z.object({
        kind: z.literal('exchange'),
        a: z.number().int().positive(),
        b: z.number().int().positive(),
      }),
    ]),
    token,
  }),
  withdraw: z.object({
    start: z.number().int().positive(),
    round: z.number().int().positive().nullable(),
    token,
  }),
  pair: z.object({ round: roundNumber, group: z.string().min(1).max(100).optional(), token }),
  // The player's fields are checked as a tournament file's players are (readPlayerJson).
  player: z.looseObject({ start: z.number().int().positive(), token }),
} as const;

/** What the player call changes; the starting rank names the player, the group stays. */
const EDITABLE_FIELDS: readonly string[] = [
  'name',
  'fmjdId',
  'rating',
  'federation',
  'club',
  'title',
  'birth',
  'sex',
];

export type TournamentCall = keyof typeof PARAMS;
export const isTournamentCall = (call: string): call is TournamentCall => Object.hasOwn(PARAMS, call);
export const tournamentCallToken = (call: TournamentCall, param: unknown): string | undefined => {
  const r = PARAMS[call].safeParse(param);
  return r.success ? r.data.token : undefined;
};

export type CallAnswer = { ok: true; value: unknown } | { ok: false; code: ErrorCode; message: string };

const refuse = (code: ErrorCode, message: string): CallAnswer => ({ ok: false, code, message });

/** Pairs a round with the pairing program and keeps its pairings; not a round with results. */
async function pair(
  access: TournamentAccess,
  event: Event,
  round: number,
  group?: string,
): Promise<CallAnswer> {
  if (!access.pairRound)
    return refuse(
      'failed',
      'no pairing program: set tournament.pairingProgram in the config (or --pairing-program), or import the pairings as a CSV',
    );
  if (roundOf(event, round)?.pairings.some((p) => p.result))
    return refuse('failed', `round ${round} has results already`);
  const r = await access.pairRound(event, round, group);
  if (!r.ok) return refuse('failed', r.error.map(formatLocated).join('; '));
  access.saveRound(r.value);
  const value = { ok: true, round, pairings: r.value.pairings.length, byes: r.value.byes.length };
  return { ok: true, value };
}

/**
 * One player's record replaced by the fields given (a field left out is cleared); the starting
 * rank and the group stay, so the pairings and the groups' standings are the same players'.
 */
function editPlayer(access: TournamentAccess, event: Event, param: Record<string, unknown>): CallAnswer {
  const { token: _, start, ...fields } = param;
  const foreign = Object.keys(fields).find((k) => !EDITABLE_FIELDS.includes(k));
  if (foreign !== undefined)
    return refuse('bad-param', `param.${foreign}: not a player field here (${EDITABLE_FIELDS.join(', ')})`);
  const read = readPlayerJson({ ...fields, start }, 'param');
  if (!read.ok) return refuse('bad-param', read.error.map(formatLocated).join('; '));
  // Names go into PDN tags and TRF lines: one line each.
  const broken = Object.entries(read.value).find(([, v]) => typeof v === 'string' && hasControlCharacter(v));
  if (broken) return refuse('bad-param', `param.${broken[0]}: control characters are not allowed`);
  const before = event.players.find((p) => p.start === read.value.start);
  if (!before) return refuse('not-found', `no player has starting rank ${read.value.start}`);
  const player: Player = { ...read.value, ...(before.group === undefined ? {} : { group: before.group }) };
  access.savePlayer(player);
  return { ok: true, value: { ok: true, player } };
}

/** A change is answered once on the disk; one the disk did not take says so. */
async function durable(access: TournamentAccess, answer: CallAnswer): Promise<CallAnswer> {
  if (!answer.ok) return answer;
  try {
    await access.sync();
  } catch (e) {
    return refuse('journal-unavailable', `written, but not synced to disk (${(e as Error).message})`);
  }
  return answer;
}

/** Runs one tournament call; answered once its change is on the disk. */
export async function tournamentCall(
  access: TournamentAccess,
  call: TournamentCall,
  param: unknown,
): Promise<CallAnswer> {
  return durable(access, await change(access, call, param));
}

function change(
  access: TournamentAccess,
  call: TournamentCall,
  param: unknown,
): CallAnswer | Promise<CallAnswer> {
  const parsed = PARAMS[call].safeParse(param);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse(
      'bad-param',
      `${['param', ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const event = access.load();
  if (call === 'tournament') return { ok: true, value: event ?? null };
  if (call === 'players') {
    const p = parsed.data as z.infer<(typeof PARAMS)['players']>;
    const players = readPlayersCsv(p.csv);
    if (!players.ok) return refuse('bad-param', players.error.map(formatLocated).join('; '));
    const fresh = eventOfPlayers(players.value, event?.name);
    const starts = new Set(fresh.players.map((p) => p.start));
    const missing = (event?.rounds ?? []).flatMap((r) =>
      [...r.pairings.flatMap((p) => [p.white, p.black]), ...r.byes.map((b) => b.player)].filter(
        (s) => !starts.has(s),
      ),
    );
    if (missing.length > 0)
      return refuse(
        'bad-param',
        `the rounds have players the file lacks: starting ranks ${[...new Set(missing)].join(', ')}`,
      );
    // The event's groups (the config's, in their order) stay; a group not among them is a typo.
    const listed = event?.groups ?? [];
    const strays = checkGroups(fresh.players, listed, 'param.csv');
    if (strays.length > 0) return refuse('bad-param', strays.map((e) => e.message).join('; '));
    const groups = listed.length > 0 ? listed : fresh.groups;
    access.save(event ? { ...event, players: fresh.players, groups } : fresh);
    return { ok: true, value: { ok: true, players: players.value.length } };
  }
  if (!event)
    return refuse('not-found', 'no tournament: load one with --tournament FILE, or send the players first');
  if (call === 'pair') {
    const p = parsed.data as z.infer<(typeof PARAMS)['pair']>;
    return pair(access, event, p.round, p.group);
  }
  if (call === 'player') return editPlayer(access, event, parsed.data as Record<string, unknown>);
  if (call === 'edit-pairings') {
    const p = parsed.data as z.infer<(typeof PARAMS)['edit-pairings']>;
    const round = roundOf(event, p.round);
    if (!round) return refuse('not-found', `no pairings of round ${p.round}`);
    const edited = editRound(round, p.edit);
    if (!edited.ok) return refuse('failed', edited.error.map((e) => e.message).join('; '));
    access.saveRound(edited.value);
    return { ok: true, value: { ok: true, round: p.round } };
  }
  if (call === 'withdraw') {
    const p = parsed.data as z.infer<(typeof PARAMS)['withdraw']>;
    const before = event.players.find((x) => x.start === p.start);
    if (!before) return refuse('not-found', `no player has starting rank ${p.start}`);
    const { withdrawn: _, ...rest } = before;
    // From that round on the pairing program pairs the player no more (an absence, TRF `-`).
    access.savePlayer(p.round === null ? rest : { ...rest, withdrawn: p.round });
    return { ok: true, value: { ok: true, start: p.start, withdrawn: p.round } };
  }
  if (call === 'pairings') {
    const p = parsed.data as z.infer<(typeof PARAMS)['pairings']>;
    const round = readPairingsCsv(p.csv, event.players, p.round);
    if (!round.ok) return refuse('bad-param', round.error.map(formatLocated).join('; '));
    access.saveRound(round.value);
    return {
      ok: true,
      value: {
        ok: true,
        round: p.round,
        pairings: round.value.pairings.length,
        byes: round.value.byes.length,
      },
    };
  }
  const p = parsed.data as z.infer<(typeof PARAMS)['table-result']>;
  const result = parseResult(p.result);
  if (result?.kind === 'game' && result.advantage && !event.advantageDraws)
    return refuse('bad-param', 'param.result: this tournament does not play draws with advantage (1+/1−)');
  if (result === undefined)
    return refuse(
      'bad-param',
      `param.result: "${p.result}" is none of 2-0, 1-1, 0-2, 1+-1-, 1--1+, +-, -+, --, *`,
    );
  if (!access.setResult(p.round, p.table, result ?? undefined))
    return refuse('not-found', `no table ${p.table} in round ${p.round}`);
  return { ok: true, value: { ok: true, round: p.round, table: p.table, result: p.result } };
}
