// The config's `tournament:` block applied to the tournament: what its file does not give (the
// event's name, the rounds planned, a first colour chosen), the groups in the organiser's order,
// and every player's group checked against them — a typo is refused with the closest group, not
// made a group of its own.
import { err, ok } from '../../src/result.ts';
import type { Event, Player, Read, TournamentError } from '../../src/tournament/index.ts';
import type { TournamentConfig } from '../config/index.ts';
import { closest } from '../config/suggest.ts';

/**
 * Players whose group is not one of `groups`, or who have none (they would be paired in a group of
 * their own: a bye every round, and missing from the standings), all at once; none when the event
 * lists no groups.
 */
export function checkGroups(
  players: readonly Player[],
  groups: readonly string[],
  where = 'players',
): TournamentError[] {
  if (groups.length === 0) return [];
  const listed = groups.join(', ');
  return players.flatMap((p): TournamentError[] => {
    const who = `${where}: ${p.name} (starting rank ${p.start})`;
    if (p.group === undefined)
      return [
        {
          code: 'no-group',
          message: `${who} has no group, and the event's players are in groups (${listed})`,
        },
      ];
    if (groups.includes(p.group)) return [];
    const near = closest(p.group, groups);
    return [
      {
        code: 'group',
        message: `${who}: group "${p.group}" is not one of the event's groups (${listed})${near ? ` — did you mean "${near}"?` : ''}`,
      },
    ];
  });
}

export function applyTournamentSettings(event: Event, settings: Partial<TournamentConfig>): Read<Event> {
  const groups = settings.groups ?? event.groups;
  const problems = checkGroups(event.players, groups);
  if (problems.length > 0) return err(problems);
  const colour = settings.firstColour === 'lot' ? undefined : settings.firstColour;
  const rounds = event.plannedRounds ?? settings.rounds;
  const first = event.firstColour ?? colour;
  return ok({
    ...event,
    name: event.name || settings.name || '',
    groups,
    ...(rounds !== undefined ? { plannedRounds: rounds } : {}),
    ...(first !== undefined ? { firstColour: first } : {}),
  });
}
