// A round's games as HTTP, WebSocket and MQTT serve them, computed once per version: PDN text per
// game, the JSON of a whole round. (Past rounds' games are kept by the hub.)
import { gameToPdn } from '../../src/game/pdn.ts';
import type { GameSnapshot } from '../../src/game/types.ts';

/** PDN text of one game, cached by board and version (games only change through versioned events). */
export class PdnCache {
  private readonly cache = new Map<string, { version: number; text: string }>();

  of(game: GameSnapshot): string {
    const key = `${game.info.round}/${game.info.board}`;
    const hit = this.cache.get(key);
    if (hit && hit.version === game.version) return hit.text;
    const text = gameToPdn(game);
    this.cache.set(key, { version: game.version, text });
    return text;
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
