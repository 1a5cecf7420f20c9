// A round's games as HTTP, WebSocket and MQTT serve them, computed once per version: snapshots of
// past rounds, PDN text per game, the JSON of a whole round.
import { gameToPdn } from '../../src/game/pdn.ts';
import type { GameSnapshot } from '../../src/game/types.ts';
import type { Hub } from '../hub.ts';

/** Games whose PDN is kept: a round's worth many times over; pollers of old rounds cannot grow it. */
const PDN_CACHED = 2048;

/** PDN text of one game, cached by board and version (games only change through versioned events). */
export class PdnCache {
  private readonly cache = new Map<string, { version: number; text: string }>();

  of(game: GameSnapshot): string {
    const key = `${game.info.round}/${game.info.board}`;
    const hit = this.cache.get(key);
    if (hit && hit.version === game.version) return hit.text;
    const text = gameToPdn(game);
    this.cache.delete(key); // re-inserted last: the oldest written is forgotten first
    this.cache.set(key, { version: game.version, text });
    if (this.cache.size > PDN_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return text;
  }

  get size(): number {
    return this.cache.size;
  }
}

/**
 * A round's games; a past round (rebuilt from the journal by the hub, and finished) is kept a few
 * seconds so pollers of old rounds cannot make the daemon replay its journal on every request.
 */
export class RoundGames {
  private readonly past = new Map<number, { at: number; games: GameSnapshot[] }>();
  private readonly hub: Hub;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(hub: Hub, ttlMs = 5000, now: () => number = Date.now) {
    this.hub = hub;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  of(round: number): GameSnapshot[] {
    if (round === this.hub.round()) return this.hub.games(round);
    // A round nobody played is answered from the index, not by replaying (and keeping) nothing.
    if (!this.hub.hasRound(round)) return [];
    const hit = this.past.get(round);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.games;
    const games = this.hub.games(round);
    if (this.past.size > 100) this.past.clear();
    this.past.set(round, { at: this.now(), games });
    return games;
  }
}

/** `JSON.stringify(games)` once per set of versions: many viewers asking `games` cost one. */
export class RoundJson {
  private last: { key: string; json: string } | undefined;

  of(round: number, games: readonly GameSnapshot[]): string {
    const key = `${round}|${games.map((g) => `${g.info.board}:${g.version}`).join(',')}`;
    if (this.last?.key === key) return this.last.json;
    const json = JSON.stringify(games);
    this.last = { key, json };
    return json;
  }
}
