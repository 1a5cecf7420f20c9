// What a pairing program (bbpPairings, JaVaFo) writes for the next round: the number of pairs on
// the first line, then one pair a line, `white black` by starting rank, `0` for the bye. Tables in
// the order of the lines.
import { err, ok } from '../result.ts';
import type { Bye, Pairing, Player, Read, Round, TournamentError } from './types.ts';

/** One line's pair, or what is wrong with it; the players it seats are marked. */
function readPair(line: string, known: ReadonlySet<number>, seated: Set<number>): [number, number] | string {
  const m = /^(\d+)\s+(\d+)$/.exec(line);
  if (!m) return `"${line}" is not two starting ranks`;
  const pair: [number, number] = [Number(m[1]), Number(m[2])];
  for (const s of pair.filter((s) => s !== 0)) {
    if (!known.has(s)) return `no player has starting rank ${s}`;
    if (seated.has(s)) return `player ${s} is paired twice`;
    seated.add(s);
  }
  return pair;
}

export function readPairingOutput(
  text: string,
  players: readonly Player[],
  round: number,
  file?: string,
): Read<Round> {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  const errors: TournamentError[] = [];
  const fail = (line: number, message: string) =>
    errors.push({ code: 'pairing-output', message, file, line });
  const count = /^\d+$/.test(lines[0] ?? '') ? Number(lines[0]) : undefined;
  if (count === undefined)
    return err([
      { code: 'pairing-output', message: 'the first line is not the number of pairs', file, line: 1 },
    ]);
  if (lines.length - 1 !== count) fail(1, `${count} pairs announced, ${lines.length - 1} given`);
  const known = new Set(players.map((p) => p.start));
  const seated = new Set<number>();
  const pairings: Pairing[] = [];
  const byes: Bye[] = [];
  for (const [i, l] of lines.slice(1).entries()) {
    const pair = readPair(l, known, seated);
    if (typeof pair === 'string') {
      fail(i + 2, pair);
      continue;
    }
    const [white, black] = pair;
    if (white === 0 || black === 0) byes.push({ player: white || black, kind: 'pairing' });
    else pairings.push({ table: pairings.length + 1, white, black });
  }
  return errors.length > 0 ? err(errors) : ok({ number: round, pairings, byes });
}
