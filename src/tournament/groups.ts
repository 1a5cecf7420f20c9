// Each group is a Swiss of its own: a pairing program sees one group at a time, its players
// numbered 1…n in starting-rank order, their rounds among themselves and their byes; the pairs it
// gives come back under the event's starting ranks, the tables numbered across the groups in the
// order the event lists them (the first group's top tables first). Pure.
import type { Bye, Event, Pairing, Round } from './types.ts';

/** One group's own event, and how its numbers map to the event's starting ranks. */
export interface GroupEvent {
  /** The group's name; undefined for an event of one group. */
  group: string | undefined;
  event: Event;
  /** The event's starting rank of the group's player `i + 1`. */
  startOf: readonly number[];
}

/** The groups of an event in their order: the listed ones, then any other a player names (sorted). */
export function groupsOf(event: Event): Array<string | undefined> {
  const named = new Set(event.players.map((p) => p.group).filter((g): g is string => g !== undefined));
  if (named.size === 0) return [undefined];
  const listed = event.groups.filter((g) => named.has(g));
  const others = [...named].filter((g) => !event.groups.includes(g)).sort();
  const ungrouped = event.players.some((p) => p.group === undefined) ? [undefined] : [];
  return [...listed, ...others, ...ungrouped];
}

/** The group's own event (all players when `group` is undefined and no player names one). */
export function groupEvent(event: Event, group: string | undefined): GroupEvent {
  const players = event.players.filter((p) => p.group === group).sort((a, b) => a.start - b.start);
  const startOf = players.map((p) => p.start);
  const local = new Map(startOf.map((s, i) => [s, i + 1]));
  const rounds: Round[] = event.rounds.map((r) => ({
    number: r.number,
    pairings: r.pairings
      .filter((p) => local.has(p.white) && local.has(p.black))
      .map((p) => ({ ...p, white: local.get(p.white)!, black: local.get(p.black)! })),
    byes: r.byes.filter((b) => local.has(b.player)).map((b) => ({ ...b, player: local.get(b.player)! })),
  }));
  return {
    group,
    event: { ...event, groups: [], players: players.map((p, i) => ({ ...p, start: i + 1 })), rounds },
    startOf,
  };
}

/** Pairings up to `round` that seat players of two groups at one table. */
export function crossGroupPairings(
  event: Event,
  round: number,
): Array<{ round: number; pairing: Pairing; groups: [string | undefined, string | undefined] }> {
  const groupOf = new Map(event.players.map((p) => [p.start, p.group]));
  return event.rounds
    .filter((r) => r.number <= round)
    .flatMap((r) =>
      r.pairings
        .filter((p) => groupOf.get(p.white) !== groupOf.get(p.black))
        .map((pairing) => ({
          round: r.number,
          pairing,
          groups: [groupOf.get(pairing.white), groupOf.get(pairing.black)] as [
            string | undefined,
            string | undefined,
          ],
        })),
    );
}

/**
 * The round of every group together: the groups' pairs under the event's starting ranks, in the
 * order of `parts` (the event's group order), tables numbered on from one group to the next; the
 * byes of all.
 */
export function joinGroupRounds(
  number: number,
  parts: ReadonlyArray<{ view: GroupEvent; round: Round }>,
): Round {
  const pairings: Pairing[] = [];
  const byes: Bye[] = [];
  for (const { view, round } of parts) {
    const start = (local: number) => view.startOf[local - 1];
    for (const p of [...round.pairings].sort((a, b) => a.table - b.table))
      pairings.push({ ...p, table: pairings.length + 1, white: start(p.white), black: start(p.black) });
    for (const b of round.byes) byes.push({ ...b, player: start(b.player) });
  }
  return { number, pairings, byes };
}
