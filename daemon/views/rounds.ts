// A round's games as the server (HTTP, WebSocket, MQTT) serves them and the publish targets receive
// them, computed once per version: PDN text per game, the JSON of a whole round, and the round's
// files by name (past rounds' games are kept by the hub).
import {
  inRoundOrder,
  type LineMemo,
  linePdn,
  type PublishedLine,
  publishedLines,
} from '../../src/broadcast/index.ts';
import type { GameResult, GameSnapshot } from '../../src/game/types.ts';
import { tableResults } from '../../src/tournament/index.ts';
import type { HubReader } from '../hub.ts';
import { setRecent } from '../keyed.ts';
import type { TournamentSource } from '../tournament/access.ts';
import { roundIndex } from './lidraughts.ts';

/** A round's games; a round nobody played is answered from the journal's index, never replayed. */
export const playedGames = (hub: Pick<HubReader, 'hasRound' | 'games'>, round: number): GameSnapshot[] =>
  hub.hasRound(round) ? hub.games(round) : [];

/** `rounds/index.json`: every round of the event that has games, with where its files are. */
export interface RoundsIndex {
  event?: string;
  current: number;
  rounds: { round: number; games: string; index: string; standings?: string }[];
}

/** The rounds of the event with games: 1 up to the current round, those the journal holds. */
export function roundsWithGames(hub: Pick<HubReader, 'hasRound' | 'round'>): number[] {
  const out: number[] = [];
  for (let round = 1; round <= hub.round(); round++) if (hub.hasRound(round)) out.push(round);
  return out;
}

/** The index of the event's rounds (paths relative to the server's or the folder's root). */
export function roundsIndex(
  rounds: readonly number[],
  current: number,
  event: string | undefined,
  standings: boolean,
): RoundsIndex {
  return {
    ...(event ? { event } : {}),
    current,
    rounds: rounds.map((round) => ({
      round,
      games: `rounds/${round}/games.pdn`,
      index: `rounds/${round}/index.json`,
      ...(standings ? { standings: `rounds/${round}/standings.json` } : {}),
    })),
  };
}

/** Boards whose published lines are kept: a few rounds of a large tournament. */
const PDN_GAMES_KEPT = 2000;

/** A published game and its PDN text. */
export interface Published {
  line: PublishedLine;
  text: string;
}

/**
 * The published lines of one board's game and their PDN text (src/broadcast), cached by board,
 * version and the table's result given (games only change through versioned events); beyond
 * PDN_GAMES_KEPT boards, the one asked for least recently goes.
 */
export class PdnCache {
  private readonly cache = new Map<string, { version: string; lines: Published[] }>();
  /** Moves already checked: a new move on a board replays one step, not the board's whole game. */
  private readonly steps: LineMemo = new WeakMap();

  constructor(
    /** A game's version as far as its PDN goes (src/broadcast PublishedChanges); its own by default. */
    private readonly versionOf: (game: GameSnapshot) => number = (game) => game.version,
  ) {}

  /** The board's published lines: its own slot first, then its continuations. */
  lines(game: GameSnapshot, result?: GameResult): Published[] {
    const key = `${game.info.round}/${game.info.board}`;
    const version = `${this.versionOf(game)}/${result ?? ''}`;
    let hit = this.cache.get(key);
    if (!hit || hit.version !== version)
      hit = {
        version,
        lines: publishedLines(game, result, this.steps).map((line) => ({ line, text: linePdn(line) })),
      };
    // Map order is insertion order: taken out and put back, the key is the most recent.
    this.cache.delete(key);
    this.cache.set(key, hit);
    if (this.cache.size > PDN_GAMES_KEPT) this.cache.delete(this.cache.keys().next().value!);
    return hit.lines;
  }

  /** The PDN text of the board's own slot. */
  of(game: GameSnapshot): string {
    return this.lines(game)[0].text;
  }

  /** A round's published games in their fixed order (src/broadcast inRoundOrder). */
  round(games: readonly GameSnapshot[], resultOf: TableResults = () => undefined): Published[] {
    return inRoundOrder(
      games.map((g) => this.lines(g, resultOf(g.info.board))),
      (p) => p.line,
    );
  }

  get size(): number {
    return this.cache.size;
  }
}

/** A table's result as entered for the round (the tournament's), when it has one. */
export type TableResults = (board: number) => GameResult | undefined;

/**
 * The tournament's results of the round's tables, which the broadcast shows for their boards' games:
 * one result per table, wherever it was entered (a past round's too).
 */
export function tournamentResults(
  tournament: TournamentSource | undefined,
  round: number,
): TableResults | undefined {
  const event = tournament?.load();
  return event ? tableResults(event, round) : undefined;
}

/** Board snapshots whose JSON is kept: every board of a large round, twice over. */
const SNAPSHOTS_KEPT = 1000;

/**
 * One board's snapshot as JSON, once per version: however many spectators ask for it (the `games`
 * call with a board, a subscription's catch-up), it is serialised once.
 */
export class SnapshotJson {
  private readonly kept = new Map<string, { version: number; json: string }>();

  of(snap: GameSnapshot): string {
    const key = `${snap.info.round}/${snap.info.board}`;
    const hit = this.kept.get(key);
    if (hit?.version === snap.version) return hit.json;
    const json = JSON.stringify(snap);
    setRecent(this.kept, key, { version: snap.version, json }, SNAPSHOTS_KEPT);
    return json;
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
 * One file of a round by its name: `games.pdn`, `games.json`, `index.json`, `<board>.pdn` (the
 * board's own slot) or `game-<i>.PDN` (the i-th published game: the boards' slots in board order,
 * then the continuations, docs/broadcast.md); undefined when the round has no such file.
 */
export function roundFile(
  round: number,
  games: readonly GameSnapshot[],
  name: string,
  pdn: PdnCache,
  results?: TableResults,
): RoundFile | undefined {
  return fileOfRound(
    round,
    games,
    name,
    pdn,
    results,
    once(() => pdn.round(games, results)),
  );
}

/** `make`'s value, made the first time it is asked for. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** roundFile, given the round's published games (`published`: asked for at most once a round). */
function fileOfRound(
  round: number,
  games: readonly GameSnapshot[],
  name: string,
  pdn: PdnCache,
  results: TableResults | undefined,
  published: () => Published[],
): RoundFile | undefined {
  const pdnFile = (body: string, download: string): RoundFile => ({ name, kind: 'pdn', body, download });
  if (name === 'games.pdn')
    return pdnFile(
      published()
        .map((p) => p.text)
        .join('\n'),
      `round-${round}.pdn`,
    );
  if (name === 'games.json') {
    const list = published().map(({ line, text }) => ({
      board: line.board,
      ...(line.part > 0 ? { part: line.part } : {}),
      pdn: text,
      result: line.result,
    }));
    return { name, kind: 'json', body: JSON.stringify({ round, games: list }) };
  }
  if (name === 'index.json') {
    const index = roundIndex(round, games, (g) => pdn.lines(g, results?.(g.info.board))[0].line.result);
    return { name, kind: 'json', body: JSON.stringify(index) };
  }
  const board = /^(\d+)\.pdn$/.exec(name);
  if (board) {
    const game = games.find((g) => g.info.board === Number(board[1]));
    return (
      game &&
      pdnFile(
        pdn.lines(game, results?.(game.info.board))[0].text,
        `round-${round}-board-${game.info.board}.pdn`,
      )
    );
  }
  const position = /^game-([1-9]\d*)\.PDN$/.exec(name);
  const game = position ? published()[Number(position[1]) - 1] : undefined;
  return game && pdnFile(game.text, `round-${round}-game-${position![1]}.pdn`);
}

/** Every file of a round, as a published folder holds them. */
export function roundFiles(
  round: number,
  games: readonly GameSnapshot[],
  pdn: PdnCache,
  results?: TableResults,
): RoundFile[] {
  // The round's published games once for all its files: a file each for hundreds of games.
  const published = once(() => pdn.round(games, results));
  const names = [
    'games.pdn',
    'games.json',
    'index.json',
    ...games.map((g) => `${g.info.board}.pdn`),
    ...Array.from({ length: published().length }, (_, i) => gameIndexFile(i + 1)),
  ];
  return names.map((name) => fileOfRound(round, games, name, pdn, results, published)!);
}
