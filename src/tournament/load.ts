// A tournament file of any kind damlink reads: its own JSON, a TRF, or a CSV of players — told
// apart by their content, so the file's name does not matter.
import { err, ok } from '../result.ts';
import { hasControlCharacter } from '../text.ts';
import { readTournamentJson } from './json.ts';
import { readPlayersCsv } from './players-csv.ts';
import { readTrf, type Scale } from './trf/event.ts';
import {
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
  type Event,
  type Player,
  type Read,
  type TournamentError,
} from './types.ts';

export type TournamentFormat = 'json' | 'trf' | 'csv';

export function formatOf(text: string): TournamentFormat {
  if (text.trimStart().startsWith('{')) return 'json';
  return /^001 /m.test(text) ? 'trf' : 'csv';
}

/** An event with these players and no rounds yet; their groups in the order they first appear. */
export function eventOfPlayers(players: readonly Player[], name = ''): Event {
  const groups = [...new Set(players.flatMap((p) => (p.group === undefined ? [] : [p.group])))];
  return {
    name,
    groups,
    players,
    rounds: [],
    points: DRAUGHTS_POINTS,
    tiebreaks: DEFAULT_TIEBREAKS,
    advantageDraws: false,
  };
}

/** Players whose name or another field holds a control character (src/text.ts), each named. */
export function controlCharacters(players: readonly Player[], file?: string): TournamentError[] {
  return players.flatMap((p) =>
    Object.entries(p)
      .filter(([, v]) => typeof v === 'string' && hasControlCharacter(v))
      .map(([field]) => ({
        code: 'control-character',
        message: `player ${p.start}: ${field} holds a control character (a line break, a tab)`,
        ...(file ? { file } : {}),
      })),
  );
}

/** A tournament file of any form; a player's text with a control character is refused, as the player call refuses it. */
export function readTournament(text: string, options: { file?: string; scale?: Scale } = {}): Read<Event> {
  const r = readAnyTournament(text, options);
  if (!r.ok) return r;
  const broken = controlCharacters(r.value.players, options.file);
  return broken.length > 0 ? err(broken) : r;
}

function readAnyTournament(text: string, options: { file?: string; scale?: Scale }): Read<Event> {
  const { file } = options;
  switch (formatOf(text)) {
    case 'json':
      return readTournamentJson(text, file);
    case 'trf': {
      const r = readTrf(text, options);
      return r.ok ? ok(r.value.event) : r;
    }
    case 'csv': {
      const r = readPlayersCsv(text, file);
      return r.ok ? ok(eventOfPlayers(r.value)) : err(r.error);
    }
  }
}
