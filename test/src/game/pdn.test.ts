import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePdn } from '../../../src/engine/index.ts';
import { GameRecord, gamesToPdn } from '../../../src/game/index.ts';
import type { GameInfo } from '../../../src/game/types.ts';
import { clockReading, player } from './fixtures/helpers.ts';

const info: GameInfo = {
  board: 1,
  round: 4,
  event: 'NK "Finale"',
  site: 'Hoogeveen',
  date: '2026.11.29',
  white: 'Baliakin, Alexander',
  black: 'Sijbrands, Ton',
  variant: 'international',
  timeControl: '5400+30',
};

describe('toPdn', () => {
  it('writes the tags lidraughts reads, moves with clocks and the arbiter markers', () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.clockEvent(clockReading(0, 5_400_000, 5_400_000, 'white'));
    rec.apply(p.move('32-28', 10_000));
    rec.clockEvent(clockReading(10_050, 5_390_000, 5_400_000, 'black'));
    rec.apply(p.move('19-23', 20_000));
    rec.clockEvent(clockReading(20_050, 5_390_000, 5_390_000, 'white'));
    rec.apply(p.move('28x19', 30_000));
    rec.apply({
      type: 'alert',
      t: 30_100,
      alert: {
        id: '3-4.11-1',
        rule: '4.11',
        ply: 3,
        side: 'white',
        message: 'took {23} off late',
        t: 30_100,
        events: [],
      },
    });
    rec.decide({ alertId: '3-4.11-1', kind: 'stands' }, 31_000);
    expect(rec.toPdn()).toBe(
      [
        '[Event "NK \'Finale\'"]',
        '[Site "Hoogeveen"]',
        '[Date "2026.11.29"]',
        '[Round "4"]',
        '[White "Baliakin, Alexander"]',
        '[Black "Sijbrands, Ton"]',
        '[Result "*"]',
        '[GameType "20"]',
        '[TimeControl "5400+30"]',
        '',
        '1. 32-28 {[%clock w1:29:50 B1:30:00]} 19-23 {[%clock W1:29:50 b1:29:50]} 2.',
        '28x19 {4.11: took (23) off late — arbiter: stands} *',
        '',
      ].join('\n'),
    );
  });

  it('does not repeat the rule when the message starts with it; corrections show the FEN', () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.apply(p.move('32-28', 1));
    const base = { rule: '5.4.6' as const, ply: 1, side: 'white' as const, t: 2, events: [] };
    rec.apply({ type: 'alert', t: 2, alert: { ...base, id: 'a', message: '5.4.6 White: quiet move' } });
    rec.apply({ type: 'alert', t: 3, alert: { ...base, id: 'b', message: 'capture missed' } });
    rec.decide({ alertId: 'b', kind: 'corrected', fen: 'W:W31:B1' }, 4);
    const text = rec.toPdn().replace(/\s+/g, ' ');
    expect(text).toContain(
      '{5.4.6 White: quiet move — arbiter: pending; 5.4.6: capture missed — arbiter: corrected to W:W31:B1}',
    );
  });

  it('writes SetUp and FEN for a set-up position, black to move numbered 1...', () => {
    const fen = 'B:W38,40:B23,12';
    const rec = new GameRecord({ info: { ...info, timeControl: undefined }, startFen: fen });
    const p = player(fen);
    rec.apply(p.move('12-17', 1));
    rec.apply(p.move('38-33', 2));
    const pdn = rec.toPdn();
    expect(pdn).toContain('[SetUp "1"]\n[FEN "B:W38,40:B12,23"]');
    expect(pdn).not.toContain('TimeControl');
    expect(pdn).toMatch(/\n1\.\.\. 12-17 2\. 38-33 \*\n$/);
  });

  it('GameType 26 for the 64-square (brazilian) game, "?" for missing tags', () => {
    const rec = new GameRecord({ info: { board: 2, round: 1, variant: 'brazilian' } });
    const pdn = rec.toPdn();
    expect(pdn).toContain('[GameType "26"]');
    expect(pdn).toContain('[Event "?"]');
    expect(pdn).toContain('[Date "????.??.??"]');
    expect(pdn).not.toContain('FEN');
  });

  it('wraps long games under 80 columns and separates games with a blank line', () => {
    const rec = new GameRecord({ info });
    const p = player();
    const moves = ['32-28', '19-23', '28x19', '14x23', '37-32', '10-14', '41-37', '5-10', '46-41', '20-24'];
    for (const [i, m] of moves.entries()) rec.apply(p.move(m, i));
    const one = rec.toPdn();
    for (const line of one.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    const two = gamesToPdn([rec.snapshot(), new GameRecord({ info: { ...info, board: 2 } }).snapshot()]);
    expect(two.split('[Event ').length - 1).toBe(2);
    expect(two).toContain('*\n\n[Event');
    expect(one.replace(/\s+/g, ' ')).toContain(
      '1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 46-41 20-24 *',
    );
  });
});

describe('tag values never break the file', () => {
  it('a name with a newline, a quote, a bracket and a backslash stays one tag, whole as lidraughts reads it', () => {
    const rec = new GameRecord({
      info: {
        ...info,
        white: 'Anna\r\n"Bo" \\ Smit]\n[Result "2-0"]',
        black: 'Tab\there',
        event: 'Cup\u0000',
      },
    });
    rec.apply(player().move('32-28', 1));
    const text = rec.toPdn();
    const tagLines = text.split('\n').filter((l) => l.startsWith('['));
    expect(tagLines).toHaveLength(9);
    // lidraughts reads a value up to the first `]` and drops every `"`: neither is inside a value.
    for (const line of tagLines) expect(line).toMatch(/^\[[A-Za-z]+ "[^"\]\\\x00-\x1f]*"\]$/);
    expect(text).toContain(`[White "Anna 'Bo' / Smit) (Result '2-0')"]`);
    const read = parsePdn(text);
    expect(read.games).toHaveLength(1);
    expect(read.games[0].tags).toMatchObject({
      White: "Anna 'Bo' / Smit) (Result '2-0')",
      Black: 'Tab here',
      Event: 'Cup ',
      Result: '*',
    });
    expect(read.games[0].moves.map((m) => m.notation)).toEqual(['32-28']);
  });

  it('any names: one line per tag, and they read back with control characters as spaces, brackets round, quotes single', () => {
    // Any text, and text made of the characters a tag value cannot hold as they are.
    const name = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({
        unit: fc.constantFrom('[', ']', '"', '\\', '\r', '\n', '\t', 'a', ' ', 'é'),
        maxLength: 20,
      }),
    );
    fc.assert(
      fc.property(name, name, (white, black) => {
        const rec = new GameRecord({ info: { ...info, white, black } });
        rec.apply(player().move('32-28', 1));
        const text = rec.toPdn();
        expect(text.split('\n').filter((l) => l.startsWith('['))).toHaveLength(9);
        const read = parsePdn(text);
        expect(read.games).toHaveLength(1);
        // Control characters become spaces; `[` `]` round brackets, `"` an apostrophe, `\` a slash
        // (what lidraughts' reader keeps whole, src/game/pdn.ts tagValue).
        const asWritten = (v: string) =>
          v
            .replace(/\r\n|[\u0000-\u001f\u007f]/g, ' ')
            .replace(/\[/g, '(')
            .replace(/\]/g, ')')
            .replace(/"/g, "'")
            .replace(/\\/g, '/') || '?';
        expect(read.games[0].tags.White).toBe(asWritten(white));
        expect(read.games[0].tags.Black).toBe(asWritten(black));
        expect(read.games[0].moves.map((m) => m.notation)).toEqual(['32-28']);
      }),
      { numRuns: 300 },
    );
  });
});
