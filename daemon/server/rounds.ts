// A round's games as HTTP, WebSocket and MQTT serve them, computed once per version: PDN text per
// game, the JSON of a whole round. (Past rounds' games are kept by the hub.)
import { gameToPdn } from '../../src/game/pdn.ts';
import type { GameSnapshot } from '../../src/game/types.ts';

/** Games whose PDN text is kept: a few rounds of a large tournament. */
const PDN_GAMES_KEPT = 2000;

/**
 * PDN text of one game, cached by board and version (games only change through versioned events);
 * beyond PDN_GAMES_KEPT games, the one asked for least recently goes.
 */
export class PdnCache {
  private readonly cache = new Map<string, { version: number; text: string }>();

  of(game: GameSnapshot): string {
    const key = `${game.info.round}/${game.info.board}`;
    let hit = this.cache.get(key);
    if (!hit || hit.version !== game.version) hit = { version: game.version, text: gameToPdn(game) };
    // Map order is insertion order: taken out and put back, the key is the most recent.
    this.cache.delete(key);
    this.cache.set(key, hit);
    if (this.cache.size > PDN_GAMES_KEPT) this.cache.delete(this.cache.keys().next().value!);
    return hit.text;
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
