import { describe, expect, it } from 'vitest';
import {
  formatOf,
  readTournament,
  readTournamentJson,
  writeTournamentJson,
} from '../../src/tournament/index.ts';

import { fixture, fixtureEvent } from './fixtures/helpers.ts';

describe("damlink's tournament JSON", () => {
  it('an event written and read back is the same event (advantages, forfeits, byes)', () => {
    const e = fixtureEvent('swiss-2026.trf');
    const event = {
      ...e,
      groups: ['Open'],
      players: e.players.map((p) => ({ ...p, group: 'Open', club: 'DC' })),
    };
    const text = writeTournamentJson(event);
    expect(text).toContain('"result": "1+-1-"');
    expect(readTournamentJson(text)).toEqual({ ok: true, value: event });
  });

  it('problems name their place in the document', () => {
    const text = JSON.stringify({
      format: 'damlink-tournament',
      version: 1,
      event: {
        name: 'X',
        players: [
          { start: 1, name: 'A' },
          { start: 'two', name: 'B' },
        ],
        rounds: [{ number: 1, pairings: [{ table: 1, white: 1, black: 7, result: '3-0' }], byes: [] }],
        tiebreaks: ['solkoff', 'buchholz'],
      },
    });
    const r = readTournamentJson(text, 't.json');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.map((e) => e.message)).toEqual([
      'event.players[1].start: must be a whole number from 1',
      'event.rounds[0].pairings[0].black: no player has starting rank 7',
      'event.rounds[0].pairings[0].result: "3-0" is none of 2-0, 1-1, 0-2, 1+-1-, 1--1+, +-, -+, --',
      expect.stringMatching(/^event\.tiebreaks\[1\]: must be one of/),
    ]);
  });

  it('a round, a table and a player appear once', () => {
    const round = {
      number: 1,
      pairings: [
        { table: 1, white: 1, black: 2 },
        { table: 1, white: 3, black: 1 },
      ],
      byes: [],
    };
    const players = [1, 2, 3].map((start) => ({ start, name: `P${start}` }));
    const text = JSON.stringify({
      format: 'damlink-tournament',
      version: 1,
      event: { players, rounds: [round, round] },
    });
    const r = readTournamentJson(text);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.map((e) => e.message)).toEqual([
        'event.rounds[0]: table 1 is in round 1 twice',
        'event.rounds[0]: player 1 is in round 1 twice',
        'event.rounds[1].number: round 1 is there twice',
        'event.rounds[1]: table 1 is in round 1 twice',
        'event.rounds[1]: player 1 is in round 1 twice',
      ]);
  });

  it('a syntax error has a line and column', () => {
    const r = readTournamentJson('{\n  "format": "damlink-tournament",\n  "version": 1,,\n}', 'bad.json');
    expect(r).toMatchObject({ ok: false, error: [{ code: 'json-syntax', file: 'bad.json', line: 3 }] });
  });
});

describe('any tournament file', () => {
  it('tells JSON, TRF and CSV apart by their content', () => {
    expect(formatOf('  {"format": "damlink-tournament"}')).toBe('json');
    expect(formatOf(fixture('lidraughts.trf'))).toBe('trf');
    expect(formatOf('name,rating\n"A, B",1500\n')).toBe('csv');
  });

  it('a CSV of players is an event without rounds, its groups in order', () => {
    const r = readTournament('name,group\n"A, B",Heren\n"C, D",Dames\n"E, F",Heren\n');
    expect(r.ok && [r.value.groups, r.value.players.length, r.value.rounds]).toEqual([
      ['Heren', 'Dames'],
      3,
      [],
    ]);
  });
});
