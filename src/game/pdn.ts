// READ /work/main/CONTRIBUTING.md BEFORE EDITING: several engineers share this tree (commit only your own paths, never `git add -A`).
// A game snapshot as lidraughts-ready PDN: the tags lidraughts reads, moves with the board's clock
// after each one (`{[%clock w1:29:30 B1:29:12]}`, capital = the clock that runs) and the arbiter's
// markers as comments. Pure function of the snapshot, so the server can cache it by version.
import type { Side } from '../../firmware-protocol/events.ts';
import { geometry, parseFen, Position } from '../engine/index.ts';
import type { AlertRecord, GameSnapshot } from './types.ts';

const LINE_WIDTH = 80;

/** `1:29:05` from milliseconds left (whole seconds, rounded down; never negative). */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** lidraughts' clock comment: the capital letter marks the side whose clock runs. */
export function clockComment(clock: { white: number; black: number; running: Side | null }): string {
  const w = clock.running === 'white' ? 'W' : 'w';
  const b = clock.running === 'black' ? 'B' : 'b';
  return `[%clock ${w}${clockText(clock.white)} ${b}${clockText(clock.black)}]`;
}

/** What the arbiter's marker on an alert says. */
export function alertComment(alert: AlertRecord): string {
  const d = alert.decision;
  const verdict = !d ? 'pending' : d.kind === 'stands' ? 'stands' : `corrected to ${d.fen}`;
  return `${alert.rule}: ${alert.message} — arbiter: ${verdict}`;
}

const tagValue = (v: string | number | undefined, fallback = '?'): string =>
  String(v === undefined || v === '' ? fallback : v)
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"');

/** Braces end a comment: never let text close it early. */
const commentSafe = (text: string): string =>
  text.replace(/[{}]/g, (c) => (c === '{' ? '(' : ')')).replace(/\s+/g, ' ');

export function pdnTags(game: GameSnapshot): Array<[string, string]> {
  const { info } = game;
  const tags: Array<[string, string]> = [
    ['Event', tagValue(info.event)],
    ['Site', tagValue(info.site)],
    ['Date', tagValue(info.date, '????.??.??')],
    ['Round', tagValue(info.round)],
    ['White', tagValue(info.white)],
    ['Black', tagValue(info.black)],
    ['Result', game.result],
    ['GameType', String(geometry(info.variant).gameType)],
  ];
  if (info.timeControl) tags.push(['TimeControl', tagValue(info.timeControl)]);
  if (!isInitial(game)) tags.push(['SetUp', '1'], ['FEN', game.startFen]);
  return tags;
}

function isInitial(game: GameSnapshot): boolean {
  const start = parseFen(game.startFen, { variant: game.info.variant });
  return start.ok && start.value.equals(Position.initial(game.info.variant));
}

/** Movetext tokens: move numbers, moves, comments, the result. */
export function pdnMoveTokens(game: GameSnapshot): string[] {
  const start = parseFen(game.startFen, { variant: game.info.variant });
  const blackFirst = start.ok && start.value.turn === 'black';
  const byPly = new Map<number, AlertRecord[]>();
  const lastPly = game.moves.at(-1)?.ply ?? 0;
  const firstPly = game.moves[0]?.ply ?? 1;
  const before: AlertRecord[] = [];
  for (const a of game.alerts) {
    // Alerts about a ply with no recorded move (yet) go with the last move, or before the first.
    const ply = game.moves.some((m) => m.ply === a.ply)
      ? a.ply
      : Math.min(Math.max(a.ply, firstPly), lastPly);
    if (ply < firstPly) before.push(a);
    else byPly.set(ply, [...(byPly.get(ply) ?? []), a]);
  }
  const tokens: string[] = [];
  if (before.length > 0) tokens.push(`{${commentSafe(before.map(alertComment).join('; '))}}`);
  game.moves.forEach((move, i) => {
    const half = i + (blackFirst ? 1 : 0);
    const number = Math.floor(half / 2) + 1;
    // The move number stays on the line of its move.
    const prefix = half % 2 === 0 ? `${number}. ` : i === 0 ? `${number}... ` : '';
    tokens.push(prefix + move.pdn);
    const notes = [
      ...(move.clock ? [clockComment(move.clock)] : []),
      ...(byPly.get(move.ply) ?? []).map(alertComment),
    ];
    if (notes.length > 0) tokens.push(`{${commentSafe(notes.join(' '))}}`);
  });
  tokens.push(game.result);
  return tokens;
}

/** Words joined by spaces, wrapped before LINE_WIDTH (comments may be longer than a line). */
function wrap(tokens: string[]): string {
  const lines: string[] = [];
  let line = '';
  for (const t of tokens) {
    if (line && line.length + 1 + t.length > LINE_WIDTH) {
      lines.push(line);
      line = t;
    } else line = line ? `${line} ${t}` : t;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** One game as PDN text, ending with a newline. */
export function gameToPdn(game: GameSnapshot): string {
  const tags = pdnTags(game)
    .map(([k, v]) => `[${k} "${v}"]`)
    .join('\n');
  return `${tags}\n\n${wrap(pdnMoveTokens(game))}\n`;
}

/** Several games, one blank line between them (a round's `games.pdn`). */
export function gamesToPdn(games: readonly GameSnapshot[]): string {
  return games.map(gameToPdn).join('\n');
}
