// damlink's own tournament file: the event as JSON, `{"format": "damlink-tournament", "version": 1,
// "event": {…}}`. Read back with every field checked; a problem names its place in the document.
import { err, ok } from '../result.ts';
import { formatResult, parseResult } from './results.ts';
import {
  type ByeKind,
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
  type Event,
  type Pairing,
  type Player,
  type PointSystem,
  type Read,
  type Round,
  TIEBREAKS,
  type Tiebreak,
  type TournamentError,
} from './types.ts';

export const TOURNAMENT_FORMAT = 'damlink-tournament';
export const TOURNAMENT_VERSION = 1;

/** Results are written as their text (`1+-1-`, `+-`…): the form people read and type. */
export function writeTournamentJson(event: Event): string {
  const rounds = event.rounds.map((r) => ({
    ...r,
    pairings: r.pairings.map((p) => {
      const { result, ...rest } = p;
      return result ? { ...rest, result: formatResult(result) } : rest;
    }),
  }));
  return `${JSON.stringify({ format: TOURNAMENT_FORMAT, version: TOURNAMENT_VERSION, event: { ...event, rounds } }, null, 2)}\n`;
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Line and column of a 0-based offset. */
function locate(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, col: before[before.length - 1].length + 1 };
}

class Checker {
  readonly errors: TournamentError[] = [];
  constructor(readonly file: string | undefined) {}

  fail(path: string, message: string): undefined {
    this.errors.push({ code: 'tournament-json', message: `${path}: ${message}`, file: this.file });
    return undefined;
  }

  text(v: Json, path: string, optional: true): string | undefined;
  text(v: Json, path: string, optional?: false): string;
  text(v: Json, path: string, optional = false): string | undefined {
    if (v === undefined && optional) return undefined;
    return typeof v === 'string' ? v : (this.fail(path, 'must be text') ?? '');
  }

  number(
    v: Json,
    path: string,
    { optional = false, whole = false, min = Number.NEGATIVE_INFINITY } = {},
  ): number | undefined {
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || (whole && !Number.isInteger(v)) || v < min)
      return this.fail(
        path,
        `must be a${whole ? ' whole' : ''} number${min > Number.NEGATIVE_INFINITY ? ` from ${min}` : ''}`,
      );
    return v;
  }

  list(v: Json, path: string): Json[] {
    if (v === undefined) return [];
    return Array.isArray(v) ? v : (this.fail(path, 'must be a list') ?? []);
  }
}

const PLAYER_TEXTS = ['fmjdId', 'federation', 'club', 'title', 'birth', 'sex', 'group'] as const;
const BYE_KINDS: readonly ByeKind[] = ['pairing', 'full', 'half', 'zero', 'absent'];

function readPlayer(c: Checker, v: Json, path: string): Player | undefined {
  if (!isObject(v)) return c.fail(path, 'must be an object');
  const start = c.number(v.start, `${path}.start`, { whole: true, min: 1 });
  const name = c.text(v.name, `${path}.name`);
  if (name.trim() === '' && typeof v.name === 'string') c.fail(`${path}.name`, 'must not be empty');
  const rating = c.number(v.rating, `${path}.rating`, { optional: true, whole: true, min: 0 });
  const withdrawn = c.number(v.withdrawn, `${path}.withdrawn`, { optional: true, whole: true, min: 1 });
  const extra: Partial<Player> = {};
  for (const k of PLAYER_TEXTS) {
    const t = c.text(v[k], `${path}.${k}`, true);
    if (t !== undefined) extra[k] = t;
  }
  if (start === undefined) return undefined;
  return {
    start,
    name,
    ...(rating === undefined ? {} : { rating }),
    ...extra,
    ...(withdrawn === undefined ? {} : { withdrawn }),
  };
}

/** One player as a JSON value (the arbiter's player call): the checks of a file's players. */
export function readPlayerJson(value: unknown, path: string): Read<Player> {
  const c = new Checker(undefined);
  const player = readPlayer(c, value, path);
  return player && c.errors.length === 0 ? ok(player) : err(c.errors);
}

function readRound(c: Checker, v: Json, path: string, starts: ReadonlySet<number>): Round | undefined {
  if (!isObject(v)) return c.fail(path, 'must be an object');
  const number = c.number(v.number, `${path}.number`, { whole: true, min: 1 });
  const seat = (x: Json, p: string) => {
    const s = c.number(x, p, { whole: true, min: 1 });
    return s !== undefined && !starts.has(s) ? c.fail(p, `no player has starting rank ${s}`) : s;
  };
  const pairings: Pairing[] = [];
  c.list(v.pairings, `${path}.pairings`).forEach((p, i) => {
    const at = `${path}.pairings[${i}]`;
    if (!isObject(p)) {
      c.fail(at, 'must be an object');
      return;
    }
    const table = c.number(p.table, `${at}.table`, { whole: true, min: 1 });
    const white = seat(p.white, `${at}.white`);
    const black = seat(p.black, `${at}.black`);
    const result = p.result === undefined ? null : parseResult(c.text(p.result, `${at}.result`));
    if (result === undefined)
      c.fail(`${at}.result`, `"${String(p.result)}" is none of 2-0, 1-1, 0-2, 1+-1-, 1--1+, +-, -+, --`);
    if (table !== undefined && white !== undefined && black !== undefined)
      pairings.push({ table, white, black, ...(result ? { result } : {}) });
  });
  const byes = c.list(v.byes, `${path}.byes`).flatMap((b, i) => {
    const at = `${path}.byes[${i}]`;
    if (!isObject(b)) return c.fail(at, 'must be an object') ?? [];
    const player = seat(b.player, `${at}.player`);
    const kind = b.kind as ByeKind;
    if (!BYE_KINDS.includes(kind))
      return c.fail(`${at}.kind`, `must be one of ${BYE_KINDS.join(', ')}`) ?? [];
    return player === undefined ? [] : [{ player, kind }];
  });
  return number === undefined ? undefined : { number, pairings, byes };
}

function readPoints(c: Checker, v: Json): PointSystem {
  if (v === undefined) return DRAUGHTS_POINTS;
  if (!isObject(v)) return c.fail('event.points', 'must be an object') ?? DRAUGHTS_POINTS;
  const points = { ...DRAUGHTS_POINTS };
  for (const k of Object.keys(DRAUGHTS_POINTS) as (keyof PointSystem)[])
    points[k] = c.number(v[k], `event.points.${k}`, { optional: true }) ?? DRAUGHTS_POINTS[k];
  return points;
}

function readTiebreaks(c: Checker, v: Json): readonly Tiebreak[] {
  if (v === undefined) return DEFAULT_TIEBREAKS;
  return c
    .list(v, 'event.tiebreaks')
    .flatMap((t, i) =>
      TIEBREAKS.includes(t as Tiebreak)
        ? [t as Tiebreak]
        : (c.fail(`event.tiebreaks[${i}]`, `must be one of ${TIEBREAKS.join(', ')}`) ?? []),
    );
}

/** A round once; in each round a table once and a player once. */
function checkRounds(c: Checker, rounds: readonly Round[]): void {
  const numbers = new Set<number>();
  rounds.forEach((r, i) => {
    const at = `event.rounds[${i}]`;
    if (numbers.has(r.number)) c.fail(`${at}.number`, `round ${r.number} is there twice`);
    numbers.add(r.number);
    const tables = new Set<number>();
    const seated = new Set<number>();
    const seat = (player: number) => {
      if (seated.has(player)) c.fail(at, `player ${player} is in round ${r.number} twice`);
      seated.add(player);
    };
    for (const p of r.pairings) {
      if (tables.has(p.table)) c.fail(at, `table ${p.table} is in round ${r.number} twice`);
      tables.add(p.table);
      seat(p.white);
      seat(p.black);
    }
    for (const b of r.byes) seat(b.player);
  });
}

const EVENT_TEXTS = ['city', 'federation', 'startDate', 'endDate', 'chiefArbiter', 'timeControl'] as const;

export function readTournamentJson(text: string, file?: string): Read<Event> {
  let doc: Json;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    return err([{ code: 'json-syntax', message, file, ...(at ? locate(text, Number(at[1])) : {}) }]);
  }
  const c = new Checker(file);
  if (!isObject(doc) || doc.format !== TOURNAMENT_FORMAT)
    return err([
      {
        code: 'tournament-json',
        message: `not a ${TOURNAMENT_FORMAT} file (no "format": "${TOURNAMENT_FORMAT}")`,
        file,
      },
    ]);
  if (doc.version !== TOURNAMENT_VERSION)
    return err([
      {
        code: 'tournament-json',
        message: `version ${String(doc.version)} is not ${TOURNAMENT_VERSION}`,
        file,
      },
    ]);
  const e = isObject(doc.event) ? doc.event : (c.fail('event', 'must be an object') ?? {});
  const players = c
    .list(e.players, 'event.players')
    .flatMap((p, i) => readPlayer(c, p, `event.players[${i}]`) ?? []);
  const starts = new Set<number>();
  for (const p of players) {
    if (starts.has(p.start)) c.fail('event.players', `starting rank ${p.start} is taken twice`);
    starts.add(p.start);
  }
  const rounds = c
    .list(e.rounds, 'event.rounds')
    .flatMap((r, i) => readRound(c, r, `event.rounds[${i}]`, starts) ?? []);
  checkRounds(c, rounds);
  const event: Event = {
    name: c.text(e.name, 'event.name', true) ?? '',
    ...Object.fromEntries(
      EVENT_TEXTS.flatMap((k) => (e[k] === undefined ? [] : [[k, c.text(e[k], `event.${k}`)]])),
    ),
    groups: c.list(e.groups, 'event.groups').map((g, i) => c.text(g, `event.groups[${i}]`)),
    players,
    rounds,
    ...(e.plannedRounds === undefined
      ? {}
      : { plannedRounds: c.number(e.plannedRounds, 'event.plannedRounds', { whole: true, min: 1 }) }),
    ...(e.firstColour === 'white' || e.firstColour === 'black' ? { firstColour: e.firstColour } : {}),
    points: readPoints(c, e.points),
    tiebreaks: readTiebreaks(c, e.tiebreaks),
    advantageDraws: e.advantageDraws === true,
  };
  if (e.firstColour !== undefined && !event.firstColour)
    c.fail('event.firstColour', 'must be "white" or "black"');
  return c.errors.length > 0 ? err(c.errors) : ok(event);
}
