// The tournament tables in a real journal file: written, closed, opened again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Journal } from '../../daemon/journal/index.ts';
import { TOURNAMENT_SCHEMA_VERSION, TournamentStore } from '../../daemon/tournament/store.ts';
import { fixtureEvent, type JournalFile, journalFile } from './fixtures/helpers.ts';

const swiss = () => {
  const e = fixtureEvent('swiss-2026.trf');
  return { ...e, groups: ['Open'], players: e.players.map((p) => ({ ...p, group: 'Open' })) };
};

let file: JournalFile;
beforeEach(() => {
  file = journalFile('tournament-store');
});
afterEach(() => file.remove());

const withStore = <T>(fn: (store: TournamentStore, journal: Journal) => T): T =>
  file.run((journal) => fn(TournamentStore.open(journal.database), journal));

describe('tournament store', () => {
  it('a journal without a tournament has none', () => {
    withStore((store) => {
      expect(store.load()).toBeUndefined();
      expect(store.currentRound()).toBeUndefined();
      expect(store.schemaVersion()).toBe(TOURNAMENT_SCHEMA_VERSION);
    });
  });

  it('the event survives a restart: players, pairings, results with advantage, forfeits, byes', () => {
    const event = swiss();
    withStore((store) => store.save(event));
    expect(withStore((store) => store.load())).toEqual(event);
  });

  it('a result and the current round are kept', () => {
    const event = swiss();
    withStore((store) => {
      store.save(event);
      expect(store.setResult(7, 1, { kind: 'game', score: '1-1', advantage: 'black' })).toBe(true);
      expect(store.setResult(7, 99, { kind: 'game', score: '2-0' })).toBe(false);
      store.setCurrentRound(7);
    });
    withStore((store) => {
      const loaded = store.load()!;
      const table1 = loaded.rounds[6].pairings.find((p) => p.table === 1);
      expect(table1?.result).toEqual({ kind: 'game', score: '1-1', advantage: 'black' });
      expect(store.currentRound()).toBe(7);
    });
  });

  it('a round replaced keeps the others', () => {
    const event = swiss();
    withStore((store) => {
      store.save(event);
      store.saveRound({
        number: 8,
        pairings: [{ table: 1, white: 1, black: 8 }],
        byes: [{ player: 9, kind: 'pairing' }],
      });
    });
    const loaded = withStore((store) => store.load())!;
    expect(loaded.rounds.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(loaded.rounds[7]).toEqual({
      number: 8,
      pairings: [{ table: 1, white: 1, black: 8 }],
      byes: [{ player: 9, kind: 'pairing' }],
    });
  });

  it('the journal goes on working beside the tables, and opening again migrates nothing twice', () => {
    withStore((store, journal) => {
      store.save(swiss());
      journal.appendMany([{ round: 1, board: 1, t: 5, input: { kind: 'result', result: '2-0' } }]);
    });
    withStore((store, journal) => {
      expect(store.schemaVersion()).toBe(TOURNAMENT_SCHEMA_VERSION);
      expect(journal.boards(1)).toEqual([1]);
      expect(store.load()?.players).toHaveLength(9);
    });
  });
});
