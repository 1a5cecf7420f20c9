// A round's pairings from CSV: `board,white,black` and optionally `result`, players by starting
// rank or by name. A header line is optional (the columns are then in that order); a black of
// `bye` or `-` (or none) gives white the pairing's bye. Every bad line is reported by its number.
import { err, ok } from '../result.ts';
import { columnOf, splitCsv } from './csv.ts';
import { parseResult } from './results.ts';
import type { Bye, Pairing, Player, Read, Round, TournamentError, TournamentErrorCode } from './types.ts';

const normalName = (s: string): string =>
  s
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .trim();

/** Finds a player by starting rank or by name; a message when none or several match. */
export function playerFinder(players: readonly Player[]): (text: string) => number | string {
  const byStart = new Set(players.map((p) => p.start));
  const byName = new Map<string, number[]>();
  for (const p of players)
    byName.set(normalName(p.name), [...(byName.get(normalName(p.name)) ?? []), p.start]);
  return (text) => {
    if (/^\d+$/.test(text))
      return byStart.has(Number(text)) ? Number(text) : `no player has starting rank ${text}`;
    const found = byName.get(normalName(text)) ?? [];
    if (found.length === 1) return found[0];
    return found.length === 0 ? `no player is called "${text}"` : `several players are called "${text}"`;
  };
}

const isBye = (s: string): boolean => s === '' || s === '-' || s.toLowerCase() === 'bye';

export function readPairingsCsv(
  text: string,
  players: readonly Player[],
  round: number,
  file?: string,
): Read<Round> {
  const { rows, error } = splitCsv(text, file);
  if (error) return err([error]);
  const hasHeader = rows.length > 0 && !/^\d+$/.test(rows[0].fields[0] ?? '');
  const header = hasHeader
    ? rows[0].fields.map((h) => h.toLowerCase())
    : ['board', 'white', 'black', 'result'];
  const at = {
    table: columnOf(header, ['board', 'table']),
    white: columnOf(header, ['white']),
    black: columnOf(header, ['black']),
    result: columnOf(header, ['result']),
  };
  const errors: TournamentError[] = [];
  if (at.table < 0 || at.white < 0 || at.black < 0) {
    const message = 'the header needs "board", "white" and "black" columns';
    return err([{ code: 'pairings-columns', message, file, line: rows[0]?.line ?? 1 }]);
  }
  const find = playerFinder(players);
  const pairings: Pairing[] = [];
  const byes: Bye[] = [];
  const lineOfPlayer = new Map<number, number>();
  const lineOfTable = new Map<number, number>();
  for (const row of hasHeader ? rows.slice(1) : rows) {
    const fail = (code: TournamentErrorCode, message: string) =>
      errors.push({ code, message, file, line: row.line });
    const cell = (i: number): string => (i >= 0 ? (row.fields[i] ?? '') : '');
    const before = errors.length;
    const table = /^\d+$/.test(cell(at.table)) ? Number(cell(at.table)) : 0;
    if (table < 1) fail('bad-table', `board "${cell(at.table)}" is not a number from 1`);
    else if (lineOfTable.has(table))
      fail('duplicate-table', `board ${table} is paired already (line ${lineOfTable.get(table)})`);
    const seat = (text: string): number | undefined => {
      const found = find(text);
      if (typeof found === 'string') return void fail('unknown-player', found);
      if (lineOfPlayer.has(found))
        return void fail('paired-twice', `${text} is paired already (line ${lineOfPlayer.get(found)})`);
      return found;
    };
    const white = seat(cell(at.white));
    const black = isBye(cell(at.black)) ? undefined : seat(cell(at.black));
    if (white !== undefined && white === black)
      fail('same-player', `${cell(at.white)} cannot play against themselves`);
    const result = parseResult(cell(at.result));
    if (result === undefined)
      fail('bad-result', `result "${cell(at.result)}" is none of 2-0, 1-1, 0-2, 1+-1-, 1--1+, +-, -+, --`);
    if (errors.length > before || white === undefined) continue;
    lineOfTable.set(table, row.line);
    lineOfPlayer.set(white, row.line);
    if (black === undefined) {
      byes.push({ player: white, kind: 'pairing' });
      continue;
    }
    lineOfPlayer.set(black, row.line);
    pairings.push({ table, white, black, ...(result ? { result } : {}) });
  }
  if (errors.length > 0) return err(errors);
  return ok({ number: round, pairings: pairings.sort((a, b) => a.table - b.table), byes });
}
