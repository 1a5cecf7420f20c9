// The one cache of past rounds: a past round no longer changes, so its games are read once and
// kept — pollers of old rounds cannot make the daemon replay its journal on every request. Read
// from the games the journal keeps of the round (its daemon stopped, or it was rebuilt once), else
// rebuilt from the journal and kept there. Bounded: beyond `max` rounds, the one asked for least
// recently goes.
import type { GameSnapshot } from '../../src/game/types.ts';
import type { Journal } from '../journal/index.ts';
import type { ReplaySettings } from './board-game.ts';
import { playedWith, replayRound } from './replay.ts';

export const PAST_ROUNDS_KEPT = 8;

export class PastRounds {
  private readonly kept = new Map<number, readonly GameSnapshot[]>();

  constructor(
    private readonly journal: Journal,
    private readonly settings: ReplaySettings,
    private readonly max = PAST_ROUNDS_KEPT,
  ) {}

  games(round: number): GameSnapshot[] {
    let games = this.kept.get(round);
    if (games) this.kept.delete(round);
    else games = this.read(round);
    // Map order is insertion order: the first key is the one asked for least recently.
    this.kept.set(round, games);
    if (this.kept.size > this.max) this.kept.delete(this.kept.keys().next().value!);
    return [...games];
  }

  private read(round: number): readonly GameSnapshot[] {
    const stored = this.journal.roundGames(round) as GameSnapshot[] | undefined;
    if (stored) return stored;
    // The round's own rules win over today's.
    const settings = playedWith(this.journal, round, this.settings);
    const games = replayRound(this.journal, round, settings).map((g) => g.record.snapshot());
    this.journal.keepRoundGames(round, games);
    return games;
  }
}
