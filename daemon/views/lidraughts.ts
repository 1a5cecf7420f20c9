// The round index lidraughts (and LiveChess tools) read: pairings with split names and results.
import type { GameSnapshot } from '../../src/game/types.ts';

export interface IndexPlayer {
  fname: string;
  mname: string;
  lname: string;
  title: string;
}

export interface RoundIndex {
  round: number;
  pairings: Array<{ board: number; url: string; white: IndexPlayer; black: IndexPlayer; result: string }>;
}

const TITLES = new Set(['GMI', 'MI', 'MF', 'GMIF', 'MIF', 'MFF', 'CMF', 'GM', 'IM', 'FM', 'CM']);

/** `Last, First Middle`, or `First Middle Last`, with an optional leading FMJD title (`GMI`). */
export function splitName(name: string | undefined): IndexPlayer {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const title = words.length > 1 && TITLES.has(words[0]) ? words.shift()! : '';
  const rest = words.join(' ');
  const comma = rest.indexOf(',');
  if (comma >= 0) {
    const [first = '', ...middle] = rest
      .slice(comma + 1)
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    return { fname: first, mname: middle.join(' '), lname: rest.slice(0, comma).trim(), title };
  }
  if (words.length <= 1) return { fname: '', mname: '', lname: rest, title };
  return { fname: words[0], mname: words.slice(1, -1).join(' '), lname: words.at(-1)!, title };
}

/** The round's boards with their players and the result published for each (`resultOf`). */
export function roundIndex(
  round: number,
  games: readonly GameSnapshot[],
  resultOf: (game: GameSnapshot) => string,
): RoundIndex {
  return {
    round,
    pairings: games.map((g) => ({
      board: g.info.board,
      url: `${g.info.board}.pdn`,
      white: splitName(g.info.white),
      black: splitName(g.info.black),
      result: resultOf(g),
    })),
  };
}
