// The one cache of past rounds: rebuilt from the journal once, with the round's own rules, and
// bounded (the round asked for least recently goes first); the games a round was rebuilt to (or a
// daemon stopped with) are kept in the journal and served from there while the round has no entry
// after them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PastRounds } from '../../../daemon/board/past-rounds.ts';
import { replayRound } from '../../../daemon/board/replay.ts';
import { RoundRebuilding } from '../../../daemon/hub.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import { Position } from '../../../src/engine/index.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { seededPlay } from '../../src/tracker/fixtures/hands.ts';
import { createToyTracker } from '../fixtures/toy-tracker.ts';

const journals: Journal[] = [];
afterEach(() => {
  for (const j of journals.splice(0)) j.close();
});

/** A journal with one board's info in each of `rounds` rounds. */
function journalOf(rounds: number): Journal {
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-past-')), 'journal.sqlite'));
  journals.push(journal);
  for (let round = 1; round <= rounds; round++) {
    journal.appendMany([
      { round, board: 1, t: round, input: { kind: 'info', info: { white: `R${round}` } } },
    ]);
  }
  return journal;
}

const SETTINGS = { variant: 'international' as const, createTracker: createToyTracker };
/** Replayed here, with the toy tracker (the thread replays with the real one). */
const ON_LOOP = { offLoop: false };

describe('past rounds', () => {
  it('are rebuilt from the journal once and then served as kept', () => {
    const journal = journalOf(2);
    let passes = 0;
    const each = journal.forEachRoundInput.bind(journal);
    journal.forEachRoundInput = (...args) => {
      passes++;
      return each(...args);
    };
    const past = new PastRounds(
      journal,
      { variant: 'international', createTracker: createToyTracker },
      ON_LOOP,
    );
    const first = past.games(1);
    expect(first.map((g) => g.info.white)).toEqual(['R1']);
    expect(past.games(1)[0]).toBe(first[0]);
    expect(passes).toBe(1);
    expect(past.games(2).map((g) => g.info.white)).toEqual(['R2']);
    expect(passes).toBe(2);
  });

  it('keep at most their bound in bytes: the round asked for least recently goes first', () => {
    const journal = journalOf(4);
    const bytes = JSON.stringify(new PastRounds(journalOf(1), SETTINGS, ON_LOOP).games(1)).length;
    const past = new PastRounds(journal, SETTINGS, { ...ON_LOOP, maxBytes: 2 * bytes + 10 });
    const one = past.games(1)[0];
    const two = past.games(2)[0];
    expect(past.games(1)[0]).toBe(one);
    past.games(3); // round 2 was asked for least recently: it goes
    expect(past.games(1)[0]).toBe(one);
    expect(past.games(2)[0]).not.toBe(two);
    expect(past.games(2)[0]).toEqual(two);
  });

  it('replay a round with the rules it was played with', () => {
    const journal = journalOf(1);
    journal.setRoundSettings(1, { variant: 'brazilian' });
    const past = new PastRounds(journal, SETTINGS, ON_LOOP);
    expect(past.games(1)[0].info.variant).toBe('brazilian');
  });

  it('kept in the journal: a daemon started later serves them without a replay, until the round has a new entry', () => {
    const journal = journalOf(2);
    const settings = SETTINGS;
    const rebuilt = new PastRounds(journal, settings, ON_LOOP).games(1);
    expect(journal.roundGames(1)).toEqual(rebuilt);
    let passes = 0;
    const each = journal.forEachRoundInput.bind(journal);
    journal.forEachRoundInput = (...args) => {
      passes++;
      return each(...args);
    };
    expect(new PastRounds(journal, settings, ON_LOOP).games(1)).toEqual(rebuilt);
    expect(passes).toBe(0);
    // An entry of the round after them: what was kept is stale, and the round is rebuilt.
    journal.appendMany([{ round: 1, board: 1, t: 9, input: { kind: 'info', info: { white: 'Later' } } }]);
    expect(journal.roundGames(1)).toBeUndefined();
    expect(new PastRounds(journal, settings, ON_LOOP).games(1).map((g) => g.info.white)).toEqual(['Later']);
    expect(passes).toBe(1);
  });
});

describe('a past round its daemon did not keep (killed)', () => {
  it('is rebuilt in a thread: meanwhile RoundRebuilding, no replay on the loop; then the same games a replay gives', async () => {
    const journal = journalOf(0);
    for (const board of [1, 2]) {
      const { script } = seededPlay(Position.initial(), board, 16);
      journal.appendMany(
        script.events.map((event) => ({
          round: 1,
          board,
          t: 1000 + event.t,
          serial: `B${board}`,
          input: { kind: 'event' as const, event },
        })),
      );
    }
    const settings = { variant: 'international' as const, createTracker };
    let passes = 0;
    const each = journal.forEachRoundInput.bind(journal);
    journal.forEachRoundInput = (...args) => {
      passes++;
      return each(...args);
    };
    const past = new PastRounds(journal, settings);
    try {
      expect(() => past.games(1)).toThrow(RoundRebuilding);
      expect(past.rebuilding).toEqual([1]);
      let games: ReturnType<PastRounds['games']> | undefined;
      const end = Date.now() + 20_000;
      while (!games && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 50));
        try {
          games = past.games(1);
        } catch (e) {
          if (!(e instanceof RoundRebuilding)) throw e;
        }
      }
      expect(passes).toBe(0);
      expect(games?.map((g) => g.moves.length)).toEqual([16, 16]);
      expect(games).toEqual(replayRound(journal, 1, settings).map((g) => g.record.snapshot()));
      // Kept in the journal: the next daemon reads it without a rebuild.
      expect(journal.roundGames(1)).toEqual(games);
    } finally {
      past.close();
    }
  });
});
