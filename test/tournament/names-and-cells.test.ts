// One check for names, wherever they come from (a players CSV, a tournament file of any form, the
// player call): a control character is refused, since it would start a new line in a TRF or a PDN
// tag; and the standings CSV never hands a spreadsheet a formula (OWASP's CSV injection).
import { describe, expect, it } from 'vitest';
import {
  readPlayersCsv,
  readTournament,
  standingsCsv,
  type StandingRow,
  writeTournamentJson,
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
} from '../../src/tournament/index.ts';

describe('control characters in players’ text', () => {
  it('a players CSV: the line, whatever the column', () => {
    const r = readPlayersCsv(
      'name,club\n"Jansen, Piet",DC Zwolle\n"Smit\n001 Injected",Club\nBos,"Tab\there"\n',
    );
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.map((e) => [e.code, e.line])).toEqual([
        ['control-character', 3],
        ['control-character', 5],
      ]);
  });

  it('a tournament file of any form (the JSON here): each player named', () => {
    const json = writeTournamentJson({
      name: 'Club',
      groups: [],
      players: [
        { start: 1, name: 'Jansen, Piet' },
        { start: 2, name: 'Smit\u0085, Jan', club: 'A\u2028B' },
      ],
      rounds: [],
      points: DRAUGHTS_POINTS,
      tiebreaks: DEFAULT_TIEBREAKS,
      advantageDraws: false,
    });
    const r = readTournament(json, { file: 'club.json' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.map((e) => e.message)).toEqual([
        'player 2: name holds a control character (a line break, a tab)',
        'player 2: club holds a control character (a line break, a tab)',
      ]);
    expect(readTournament('name\nJansen\nBos\n').ok).toBe(true);
  });
});

describe('standings CSV cells', () => {
  it('a name or group a spreadsheet would read as a formula gets a leading quote; numbers stay', () => {
    const row = (start: number, name: string, group?: string): StandingRow =>
      ({
        rank: start,
        start,
        name,
        ...(group ? { group } : {}),
        points: 2,
        tiebreaks: { 'plus-minus': -1 },
      }) as unknown as StandingRow;
    const csv = standingsCsv([
      row(1, "=cmd|' /C calc'!A0"),
      row(2, '+31 6 1234', '-Juniors'),
      row(3, '@SUM(A1)', '\tTab'),
      row(4, 'Jansen, Piet'),
      // Control characters a TRF may carry (a vertical tab, a file separator, a line break): spaces.
      row(5, 'de\u000bVries\u001c, Anna\nB', '\t=HYPERLINK("x")'),
    ]);
    const lines = csv.trim().split('\n').slice(1);
    expect(lines).toHaveLength(5);
    expect(lines[0].split(',')[2]).toBe("'=cmd|' /C calc'!A0");
    expect(lines[1].split(',').slice(2, 4)).toEqual(["'+31 6 1234", "'-Juniors"]);
    expect(lines[2].split(',').slice(2, 4)).toEqual(["'@SUM(A1)", ' Tab']);
    expect(lines[3]).toContain('"Jansen, Piet"');
    expect(lines[4]).toContain('"de Vries , Anna B"');
    expect(lines[4]).toContain('"\' =HYPERLINK(""x"")"');
    expect(csv).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
    // A negative tie-break is a number, not text: as it was.
    expect(lines[0].split(',').at(-1)).toBe('-1');
  });
});
