// A round's games as HTTP, WebSocket and MQTT serve them, computed once per version: PDN text per
// game, the JSON of a whole round, and the round's files by name (past
// rounds' games are kept by the hub).
import { gameToPdn } from '../../src/game/pdn.ts';
import type { GameSnapshot } from '../../src/game/types.ts';
import type { Hub } from '../hub.ts';
import { roundIndex } from './lidraughts.ts';

/** A round's games; a round nobody played is answered from the journal's index, never replayed. */
export const playedGames = (hub: Pick<Hub, 'hasRound' | 'games'>, round: number): GameSnapshot[] =>
  hub.hasRound(round) ? hub.games(round) : [];

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

  get size(): number {
    return this.cache.size;
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

/** lidraughts' "game indices" mode fetches `<url><i>.PDN`, upper case, i from 1 in board order. */
export const gameIndexFile = (position: number): string => `game-${position}.PDN`;

export interface RoundFile {
  /** The file's name inside `rounds/<n>/`, the same on the HTTP routes and in published folders. */
  name: string;
  kind: 'pdn' | 'json';
  body: string;
  /** `Content-Disposition` file name for a download (`round-3-board-7.pdn`). */
  download?: string;
}

/**
 * One file of a round by its name: `games.pdn`, `games.json`, `index.json`, `<board>.pdn` or
 * `game-<i>.PDN` (i = the game's position in the round); undefined when the round has no such file.
 */
export function roundFile(
  round: number,
  games: readonly GameSnapshot[],
  name: string,
  pdn: PdnCache,
): RoundFile | undefined {
  const pdnFile = (body: string, download: string): RoundFile => ({ name, kind: 'pdn', body, download });
  if (name === 'games.pdn') return pdnFile(games.map((g) => pdn.of(g)).join('\n'), `round-${round}.pdn`);
  if (name === 'games.json') {
    const list = games.map((g) => ({ board: g.info.board, pdn: pdn.of(g), result: g.result }));
    return { name, kind: 'json', body: JSON.stringify({ round, games: list }) };
  }
  if (name === 'index.json') return { name, kind: 'json', body: JSON.stringify(roundIndex(round, games)) };
  const board = /^(\d+)\.pdn$/.exec(name);
  if (board) {
    const game = games.find((g) => g.info.board === Number(board[1]));
    return game && pdnFile(pdn.of(game), `round-${round}-board-${game.info.board}.pdn`);
  }
  const position = /^game-([1-9]\d*)\.PDN$/.exec(name);
  const game = position ? games[Number(position[1]) - 1] : undefined;
  return game && pdnFile(pdn.of(game), `round-${round}-game-${position![1]}.pdn`);
}

/** Every file of a round, as a published folder holds them. */
export function roundFiles(round: number, games: readonly GameSnapshot[], pdn: PdnCache): RoundFile[] {
  const names = [
    'games.pdn',
    'games.json',
    'index.json',
    ...games.map((g) => `${g.info.board}.pdn`),
    ...games.map((_, i) => gameIndexFile(i + 1)),
  ];
  return names.map((name) => roundFile(round, games, name, pdn)!);
}
