// The tournament at the daemon's start, on a real journal file: the file merged into the store,
// the round the journal was at, the boards named from the pairings.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type LoadedConfig, loadConfig } from '../../daemon/config/index.ts';
import type { Journal } from '../../daemon/journal/index.ts';
import { readTournamentFile } from '../../daemon/tournament/file.ts';
import { startTournament } from '../../daemon/tournament/start.ts';
import { bergerRounds, type Event } from '../../src/tournament/index.ts';
import { FIXTURES, fixtureEvent, type JournalFile, journalFile } from './fixtures/helpers.ts';

const config = (round: number): LoadedConfig => {
  const c = loadConfig({
    flags: { boards: ['tcp://127.0.0.1:7001', 'tcp://127.0.0.1:7002', 'tcp://127.0.0.1:7003'], round },
    env: {},
  });
  if (!c.ok) throw new Error(c.error.join('\n'));
  return c.value;
};

/** Six players, the first two rounds of their Berger table paired, no results yet. */
const roundRobin = (): Event => ({
  ...fixtureEvent('berger6-trf16.trf'),
  rounds: bergerRounds(6).slice(0, 2),
});

let file: JournalFile;
beforeEach(() => {
  file = journalFile('tournament-start');
});
afterEach(() => file.remove());

const withJournal = <T>(fn: (j: Journal) => T): T => file.run(fn);

describe('the tournament at start', () => {
  it('without a tournament the config stays as it is', () => {
    const c = config(3);
    withJournal((j) => expect(startTournament(j, c).config).toBe(c));
  });

  it("the round's pairings name the boards: table n on board n", () => {
    const t = withJournal((j) => startTournament(j, config(1), roundRobin()));
    expect(t.config.setups.map((s) => [s.board, s.white, s.black])).toEqual([
      [1, 'Sijbrands, Ton', 'Bos, Eva'],
      [2, 'Clerc, Rob', 'Diallo, Ousmane'],
      [3, 'Hoekstra, Tanja', 'Lemaire, Pierre'],
    ]);
    // FMJD ids go with the names, for the PDN's tags.
    expect(t.config.setups.map((s) => [s.whiteFmjdId, s.blackFmjdId])).toEqual([
      ['3000012', undefined],
      ['3000031', '3000555'],
      ['3000444', undefined],
    ]);
  });

  it("a restart continues the journal's round; the config's round only set the first", () => {
    withJournal((j) => {
      const t = startTournament(j, config(2), roundRobin());
      expect(t.config.round).toBe(2);
    });
    const again = withJournal((j) => startTournament(j, config(1)));
    expect(again.config.round).toBe(2);
    expect(again.config.setups[0]).toMatchObject({ white: 'Bos, Eva', black: 'Lemaire, Pierre' });
  });

  it('loading the same file again keeps the results entered since', () => {
    withJournal((j) => {
      const t = startTournament(j, config(1), roundRobin());
      t.store.setResult(1, 2, { kind: 'game', score: '1-1', advantage: 'black' });
    });
    const t = withJournal((j) => startTournament(j, config(1), roundRobin()));
    expect(t.event?.rounds[0].pairings[1].result).toEqual({ kind: 'game', score: '1-1', advantage: 'black' });
  });

  it('--tournament: a bad file is bad usage, each problem located', () => {
    expect(() => readTournamentFile(join(FIXTURES, 'missing.json'))).toThrow(/--tournament: cannot read/);
    expect(readTournamentFile(join(FIXTURES, 'berger6-trf16.trf')).players).toHaveLength(6);
    const bad = join(file.dir, 'players.csv');
    writeFileSync(bad, 'name,rating\n"A, B",x\n');
    expect(() => readTournamentFile(bad)).toThrow(
      expect.objectContaining({
        exitCode: 2,
        lines: [`--tournament ${bad}:2: rating "x" is not a whole number`],
      }),
    );
  });

  it('the players file is checked whole: short rows and rows without a group, every one with its line', () => {
    const bad = join(file.dir, 'players.csv');
    writeFileSync(
      bad,
      [
        'start,name,rating,group',
        '1,"A, B",1500,Seniors',
        '2,"C, D",1400',
        '3,"E, F",1300,',
        '4,"G, H",1200,Juniors',
        '5,"I, J"',
      ].join('\n'),
    );
    expect(() => readTournamentFile(bad)).toThrow(
      expect.objectContaining({
        exitCode: 2,
        lines: [
          `--tournament ${bad}:3: 3 fields where the header has 4: no "group"`,
          `--tournament ${bad}:4: E, F has no group, and the file's players have groups`,
          `--tournament ${bad}:6: 2 fields where the header has 4: no "rating", "group"`,
        ],
      }),
    );
  });

  it("with the config's groups, a player without one is refused at start (JSON and TRF alike), all at once", () => {
    const event = fixtureEvent('berger6-trf16.trf');
    const grouped: Event = {
      ...event,
      players: event.players.map((p) => (p.start % 3 === 0 ? p : { ...p, group: p.start % 2 ? 'A' : 'B' })),
    };
    const c = { ...config(1), tournament: { ...config(1).tournament, groups: ['A', 'B'] } };
    let thrown: { lines?: string[] } | undefined;
    try {
      withJournal((j) => startTournament(j, c, grouped));
    } catch (e) {
      thrown = e as { lines?: string[] };
    }
    expect(thrown?.lines).toEqual(
      [3, 6].map((start) => {
        const p = event.players.find((x) => x.start === start)!;
        return `tournament: players: ${p.name} (starting rank ${start}) has no group, and the event's players are in groups (A, B)`;
      }),
    );
  });

  it("a tournament its file does not name is the config's event", () => {
    const players = fixtureEvent('berger6-trf16.trf');
    const c = { ...config(1), event: 'Clubkampioenschap 2027' };
    const started = withJournal((j) => startTournament(j, c, { ...players, name: '' }));
    expect(started.event?.name).toBe('Clubkampioenschap 2027');
  });
});
