// Standings of a group: points, then the event's tie-breaks in their configured order. How
// unplayed rounds count is one rule for every tie-break (docs/tournament.md): a bye, a forfeit or an
// absence is a game against a dummy opponent with the player's own final points.
import { type Card, scoreCards, totalPoints } from './cards.ts';
import type { Event, Player, Tiebreak, VALUED_TIEBREAKS } from './types.ts';

export type ValuedTiebreak = (typeof VALUED_TIEBREAKS)[number];
export type TiebreakValues = Record<ValuedTiebreak, number>;

export interface StandingRow {
  /** Shared by players no tie-break separates. */
  rank: number;
  start: number;
  name: string;
  group?: string;
  points: number;
  tiebreaks: TiebreakValues;
}

export interface StandingsOptions {
  /** Only this group's players; absent = every player of the event. */
  group?: string;
  /** Overrides the event's order. */
  tiebreaks?: readonly Tiebreak[];
}

const FRACTION = { win: 1, draw: 0.5, loss: 0 } as const;
const sum = (xs: readonly number[]): number => xs.reduce((n, x) => n + x, 0);
const ascending = (xs: readonly number[]): number[] => [...xs].sort((a, b) => a - b);

function tiebreakValues(
  cards: readonly Card[],
  own: number,
  finals: ReadonlyMap<number, number>,
): TiebreakValues {
  // The opponent's final points per round; the dummy's (the player's own) when no game was played.
  const opponents = cards.map((c) =>
    c.played && c.opponent !== undefined ? (finals.get(c.opponent) ?? 0) : own,
  );
  const sorted = ascending(opponents);
  return {
    solkoff: sum(opponents),
    'solkoff-truncated': sum(sorted.slice(1)),
    median: sum(sorted.slice(1, -1)),
    'sonneborn-berger': sum(cards.map((c, i) => opponents[i] * FRACTION[c.outcome])),
    wins: cards.filter((c) => c.outcome === 'win' && c.opponent !== undefined).length,
    'plus-minus':
      cards.filter((c) => c.advantage === 'plus').length -
      cards.filter((c) => c.advantage === 'minus').length,
  };
}

interface Entry {
  player: Player;
  cards: readonly Card[];
  points: number;
  tiebreaks: TiebreakValues;
}

/** Points scored against each other by a tied class, when every pair of it has met; else undefined. */
function mutualPoints(entries: readonly Entry[]): Map<number, number> | undefined {
  const starts = new Set(entries.map((e) => e.player.start));
  const met = new Set<string>();
  const points = new Map<number, number>();
  for (const e of entries) {
    let n = 0;
    for (const c of e.cards) {
      if (c.opponent === undefined || !starts.has(c.opponent)) continue;
      n += c.points;
      met.add(`${Math.min(e.player.start, c.opponent)}-${Math.max(e.player.start, c.opponent)}`);
    }
    points.set(e.player.start, n);
  }
  const pairs = (entries.length * (entries.length - 1)) / 2;
  return met.size === pairs ? points : undefined;
}

/** Splits a class of equal entries by `value`, best first. */
function splitBy(entries: readonly Entry[], value: (e: Entry) => number): Entry[][] {
  const classes = new Map<number, Entry[]>();
  for (const e of entries) {
    const v = value(e);
    classes.set(v, [...(classes.get(v) ?? []), e]);
  }
  return [...classes.entries()].sort((a, b) => b[0] - a[0]).map(([, es]) => es);
}

function order(entries: readonly Entry[], keys: readonly Tiebreak[]): Entry[][] {
  if (entries.length < 2 || keys.length === 0) return [entries.slice()];
  const [key, ...rest] = keys;
  let classes: Entry[][];
  if (key === 'mutual') {
    const mutual = mutualPoints(entries);
    classes = mutual ? splitBy(entries, (e) => mutual.get(e.player.start) ?? 0) : [entries.slice()];
  } else classes = splitBy(entries, (e) => e.tiebreaks[key]);
  return classes.flatMap((c) => order(c, rest));
}

/** The standings of the event (or of one group), ranked best first. */
export function standings(event: Event, options: StandingsOptions = {}): StandingRow[] {
  const cards = scoreCards(event);
  const finals = new Map([...cards].map(([start, cs]) => [start, totalPoints(cs)]));
  const players = event.players.filter((p) => options.group === undefined || p.group === options.group);
  const entries = players.map((player): Entry => {
    const own = cards.get(player.start) ?? [];
    const points = finals.get(player.start) ?? 0;
    return { player, cards: own, points, tiebreaks: tiebreakValues(own, points, finals) };
  });
  const keys = options.tiebreaks ?? event.tiebreaks;
  const rows: StandingRow[] = [];
  for (const byPoints of splitBy(entries, (e) => e.points))
    for (const tied of order(byPoints, keys)) {
      const rank = rows.length + 1;
      for (const e of [...tied].sort((a, b) => a.player.start - b.player.start))
        rows.push({
          rank,
          start: e.player.start,
          name: e.player.name,
          ...(e.player.group === undefined ? {} : { group: e.player.group }),
          points: e.points,
          tiebreaks: e.tiebreaks,
        });
    }
  return rows;
}

/** Every group's standings, in the event's group order (one unnamed group when it has none). */
export function groupStandings(
  event: Event,
  tiebreaks?: readonly Tiebreak[],
): { group?: string; rows: StandingRow[] }[] {
  if (event.groups.length === 0) return [{ rows: standings(event, { tiebreaks }) }];
  return event.groups.map((group) => ({ group, rows: standings(event, { group, tiebreaks }) }));
}
