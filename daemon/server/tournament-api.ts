// The tournament over the API: `GET /api/v1/tournament` for the console's pages, and the arbiter's
// calls that change it — a table's result, a round's pairings or the players from CSV.
import { z } from 'zod';
import { formatLocated } from '../../src/result.ts';
import {
  type Event,
  eventOfPlayers,
  parseResult,
  readPairingsCsv,
  readPlayersCsv,
  type Read,
  type Round,
  roundOf,
} from '../../src/tournament/index.ts';
import type { PairingResult } from '../../src/tournament/types.ts';
import type { ErrorCode } from './protocol.ts';
import type { TournamentSource } from './standings.ts';

/** What the calls change; the tournament store has it. */
export interface TournamentAccess extends TournamentSource {
  save(event: Event): void;
  saveRound(round: Round): void;
  setResult(round: number, table: number, result: PairingResult | undefined): boolean;
  /** Pairs `round` with the configured pairing program (absent: none configured). */
  pairRound?(event: Event, round: number): Promise<Read<Round>>;
}

const token = z.string().max(500).optional();
const roundNumber = z.number().int().positive();
const csv = z.string().max(512 * 1024);

const PARAMS = {
  'table-result': z.object({
    round: roundNumber,
    table: z.number().int().positive(),
    result: z.string().max(20),
    token,
  }),
  pairings: z.object({ round: roundNumber, csv, token }),
  players: z.object({ csv, token }),
  pair: z.object({ round: roundNumber, token }),
} as const;

export type TournamentCall = keyof typeof PARAMS;
export const isTournamentCall = (call: string): call is TournamentCall => Object.hasOwn(PARAMS, call);
export const tournamentCallToken = (call: TournamentCall, param: unknown): string | undefined => {
  const r = PARAMS[call].safeParse(param);
  return r.success ? r.data.token : undefined;
};

export type CallAnswer = { ok: true; value: unknown } | { ok: false; code: ErrorCode; message: string };

const refuse = (code: ErrorCode, message: string): CallAnswer => ({ ok: false, code, message });

/** Pairs a round with the pairing program and keeps its pairings; not a round with results. */
async function pair(access: TournamentAccess, event: Event, round: number): Promise<CallAnswer> {
  if (!access.pairRound)
    return refuse('failed', 'no pairing program: start the daemon with --pairing-program');
  if (roundOf(event, round)?.pairings.some((p) => p.result))
    return refuse('failed', `round ${round} has results already`);
  const r = await access.pairRound(event, round);
  if (!r.ok) return refuse('failed', r.error.map(formatLocated).join('; '));
  access.saveRound(r.value);
  const value = { ok: true, round, pairings: r.value.pairings.length, byes: r.value.byes.length };
  return { ok: true, value };
}

/** Runs one tournament call. */
export function tournamentCall(
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
    access.save(event ? { ...event, players: fresh.players, groups: fresh.groups } : fresh);
    return { ok: true, value: { ok: true, players: players.value.length } };
  }
  if (!event)
    return refuse('not-found', 'no tournament: load one with --tournament FILE, or send the players first');
  if (call === 'pair') return pair(access, event, (parsed.data as z.infer<(typeof PARAMS)['pair']>).round);
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
