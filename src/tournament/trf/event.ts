// A TRF file as an event and back. Points come out on the draughts scale (a win 2): a `162` or
// `BB?` line gives the file's own system (W 1.0 = the chess scale, doubled); a file without one is
// on the chess scale unless its players' points add up on the draughts scale (lidraughts writes
// them on the chess scale); `scale` overrides both.
import { err, ok } from '../../result.ts';
import { roundCards, scoreCards, totalPoints } from '../cards.ts';
import { standings } from '../standings.ts';
import { firstColourUsed } from '../tables.ts';
import {
  type Bye,
  type ByeKind,
  CHESS_POINTS,
  type Side,
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
  type Event,
  type Pairing,
  type PairingResult,
  type Player,
  type PointSystem,
  type Read,
  type Round,
  type TournamentError,
} from '../types.ts';
import {
  readTrfDocument,
  type TrfCell,
  type TrfDocument,
  type TrfLine,
  type TrfOtherLine,
  type TrfPlayerLine,
  writeTrfDocument,
} from './document.ts';
import { type AdvantageNote, advantageNote, pointSystemLine, readHeader, type TrfHeader } from './header.ts';

export type Scale = 'chess' | 'draughts';

export interface TrfReadOptions {
  scale?: Scale;
  file?: string;
}

export interface TrfEvent {
  event: Event;
  /** The scale the file's points were read on. */
  scale: Scale;
}

const BYE_CODES: Record<string, ByeKind> = {
  U: 'pairing',
  '+': 'pairing',
  F: 'full',
  H: 'half',
  Z: 'zero',
  ' ': 'zero',
  '-': 'absent',
};
const WIN = '1W';
const LOSS = '0L';
const DRAW = '=D';

function playerOf(l: TrfPlayerLine): Player {
  const optional: [keyof Player, string][] = [
    ['sex', l.sex],
    ['title', l.title],
    ['federation', l.federation],
    ['fmjdId', l.id],
    ['birth', l.birth],
  ];
  return {
    start: l.start,
    name: l.name,
    ...(l.rating !== '' && Number(l.rating) > 0 ? { rating: Number(l.rating) } : {}),
    ...Object.fromEntries(optional.filter(([, v]) => v !== '')),
  };
}

/** The game two cells of one round describe, seen from `a`'s cell; a message when they disagree. */
function gameOf(a: TrfPlayerLine, ca: TrfCell, b: TrfPlayerLine, cb: TrfCell): PairingResult | null | string {
  const pair = ca.code + cb.code;
  const one = (x: string, y: string) => x.includes(ca.code) && y.includes(cb.code);
  if (one(WIN, LOSS)) return { kind: 'game', score: '2-0' };
  if (one(LOSS, WIN)) return { kind: 'game', score: '0-2' };
  if (one(DRAW, DRAW)) return { kind: 'game', score: '1-1' };
  if (pair === '+-') return { kind: 'forfeit', winner: 'white' };
  if (pair === '-+') return { kind: 'forfeit', winner: 'black' };
  if (pair === '--') return { kind: 'forfeit', winner: 'none' };
  if ('Z '.includes(ca.code) && 'Z '.includes(cb.code)) return null;
  return `results "${ca.code}" of ${a.start} and "${cb.code}" of ${b.start} disagree`;
}

function roundOf(
  number: number,
  players: ReadonlyMap<number, TrfPlayerLine>,
  file: string | undefined,
  errors: TournamentError[],
): { pairings: Omit<Pairing, 'table'>[]; byes: Bye[] } {
  const pairings: Omit<Pairing, 'table'>[] = [];
  const byes: Bye[] = [];
  const col = 92 + (number - 1) * 10;
  for (const a of players.values()) {
    const ca = a.cells[number - 1];
    if (!ca) continue;
    const fail = (message: string) => errors.push({ code: 'trf-pairing', message, file, line: a.line, col });
    if (!ca.opponent) {
      const kind = BYE_CODES[ca.code];
      if (kind) byes.push({ player: a.start, kind });
      else fail(`round ${number}: result "${ca.code}" needs an opponent`);
      continue;
    }
    const b = players.get(ca.opponent);
    const cb = b?.cells[number - 1];
    if (!b || !cb || cb.opponent !== a.start) {
      fail(`round ${number}: ${a.start} meets ${ca.opponent}, who does not meet ${a.start}`);
      continue;
    }
    // Each game once: from white's cell (from the lower rank when neither has a colour).
    const aWhite = ca.colour === 'w' || (ca.colour !== 'b' && cb.colour !== 'w' && a.start < b.start);
    if (!aWhite) continue;
    if (ca.colour === cb.colour && ca.colour !== '-') {
      fail(`round ${number}: ${a.start} and ${b.start} both have colour "${ca.colour}"`);
      continue;
    }
    const game = gameOf(a, ca, b, cb);
    if (typeof game === 'string') fail(`round ${number}: ${game}`);
    else pairings.push({ white: a.start, black: b.start, ...(game ? { result: game } : {}) });
  }
  return { pairings, byes };
}

/** Tables in the order pairing programs number them: the pair's higher score first, then rank. */
function numberTables(
  pairs: readonly Omit<Pairing, 'table'>[],
  before: ReadonlyMap<number, number>,
): Pairing[] {
  const key = (p: Omit<Pairing, 'table'>) => Math.max(before.get(p.white) ?? 0, before.get(p.black) ?? 0);
  return [...pairs]
    .sort((a, b) => key(b) - key(a) || Math.min(a.white, a.black) - Math.min(b.white, b.black))
    .map((p, i) => ({ table: i + 1, ...p }));
}

function applyAdvantages(
  rounds: Round[],
  notes: readonly AdvantageNote[],
  file: string | undefined,
  errors: TournamentError[],
): Round[] {
  return rounds.map((round) => {
    const mine = notes.filter((n) => n.round === round.number);
    if (mine.length === 0) return round;
    const pairings = round.pairings.map((p) => {
      const note = mine.find(
        (n) => (n.plus === p.white && n.minus === p.black) || (n.plus === p.black && n.minus === p.white),
      );
      if (!note) return p;
      if (p.result?.kind !== 'game' || p.result.score !== '1-1') {
        errors.push({
          code: 'trf-advantage',
          message: `round ${round.number}: ${note.plus}–${note.minus} is no draw`,
          file,
          line: note.line,
        });
        return p;
      }
      const advantage: Side = note.plus === p.white ? 'white' : 'black';
      return { ...p, result: { ...p.result, advantage } };
    });
    for (const n of mine)
      if (
        !round.pairings.some(
          (p) => [p.white, p.black].includes(n.plus) && [p.white, p.black].includes(n.minus),
        )
      )
        errors.push({
          code: 'trf-advantage',
          message: `round ${round.number}: ${n.plus} and ${n.minus} did not meet`,
          file,
          line: n.line,
        });
    return { ...round, pairings };
  });
}

const scaled = (p: PointSystem, factor: number): PointSystem => ({
  win: p.win * factor,
  draw: p.draw * factor,
  loss: p.loss * factor,
  forfeitLoss: p.forfeitLoss * factor,
  pairingBye: p.pairingBye * factor,
});

/** Whether every stated score adds up under `points` (a file without stated scores: no). */
function statedScoresMatch(
  players: readonly TrfPlayerLine[],
  rounds: readonly Round[],
  points: PointSystem,
): boolean {
  const stated = players.filter((p) => p.points !== '');
  if (stated.length === 0) return false;
  const cards = scoreCards({ players: players.map(playerOf), rounds, points });
  return stated.every((p) => Math.abs(totalPoints(cards.get(p.start) ?? []) - Number(p.points)) < 1e-9);
}

function pointSystemOf(
  header: TrfHeader,
  players: readonly TrfPlayerLine[],
  rounds: readonly Round[],
  override?: Scale,
): { points: PointSystem; scale: Scale } {
  const given = header.points;
  if (Object.keys(given).length > 0) {
    // TRF's own defaults fill the codes the file leaves out; the pairing's bye is worth a win.
    const declared = { ...CHESS_POINTS, pairingBye: given.win ?? CHESS_POINTS.win, ...given };
    const scale = override ?? (declared.win === 1 ? 'chess' : 'draughts');
    return { points: scaled(declared, scale === 'chess' ? 2 : 1), scale };
  }
  const onDraughts =
    statedScoresMatch(players, rounds, DRAUGHTS_POINTS) && !statedScoresMatch(players, rounds, CHESS_POINTS);
  const scale = override ?? (onDraughts ? 'draughts' : 'chess');
  return { points: scale === 'chess' ? scaled(CHESS_POINTS, 2) : DRAUGHTS_POINTS, scale };
}

export function eventFromTrfDocument(doc: TrfDocument, options: TrfReadOptions = {}): Read<TrfEvent> {
  const { file } = options;
  const errors: TournamentError[] = [];
  const lines = doc.lines.filter((l): l is TrfPlayerLine => l.kind === 'player');
  const header = readHeader(
    doc.lines.filter((l): l is TrfOtherLine => l.kind === 'other'),
    file,
    errors,
  );
  const byStart = new Map<number, TrfPlayerLine>();
  for (const l of lines) {
    if (byStart.has(l.start))
      errors.push({
        code: 'trf-duplicate-start',
        message: `starting rank ${l.start} is taken already (line ${byStart.get(l.start)!.line})`,
        file,
        line: l.line,
        col: 5,
      });
    else byStart.set(l.start, l);
  }
  // Rounds a player line gives, without trailing blank cells.
  const filled = (l: TrfPlayerLine) => {
    let n = l.cells.length;
    while (
      n > 0 &&
      l.cells[n - 1].opponent === null &&
      l.cells[n - 1].colour === ' ' &&
      l.cells[n - 1].code === ' '
    )
      n--;
    return n;
  };
  const played = Math.max(0, ...lines.map(filled));
  const unnumbered = Array.from({ length: played }, (_, i) => ({
    number: i + 1,
    ...roundOf(i + 1, byStart, file, errors),
  }));
  if (errors.length > 0) return err(errors);
  // Table order needs the scores before each round, on any scale.
  const rounds: Round[] = [];
  const before = new Map<number, number>();
  for (const r of unnumbered) {
    const round = { number: r.number, pairings: numberTables(r.pairings, before), byes: r.byes };
    rounds.push(round);
    for (const [start, card] of roundCards(round, CHESS_POINTS))
      before.set(start, (before.get(start) ?? 0) + card.points);
  }
  const withAdvantages = applyAdvantages(rounds, header.advantages, file, errors);
  if (errors.length > 0) return err(errors);
  const { points, scale } = pointSystemOf(header, lines, withAdvantages, options.scale);
  const event: Event = {
    name: header.texts.name ?? '',
    ...Object.fromEntries(Object.entries(header.texts).filter(([k]) => k !== 'name')),
    groups: [],
    players: lines.map(playerOf),
    rounds: withAdvantages,
    ...(header.plannedRounds ? { plannedRounds: header.plannedRounds } : {}),
    ...(header.firstColour ? { firstColour: header.firstColour } : {}),
    points,
    tiebreaks: DEFAULT_TIEBREAKS,
    advantageDraws: header.advantages.length > 0,
  };
  return ok({ event, scale });
}

export function readTrf(text: string, options: TrfReadOptions = {}): Read<TrfEvent> {
  const doc = readTrfDocument(text, options.file);
  return doc.ok ? eventFromTrfDocument(doc.value, options) : doc;
}

const formatPoints = (n: number): string => (Number.isInteger(n * 10) ? n.toFixed(1) : String(n));

const CODE: Record<string, string> = { win: '1', draw: '=', loss: '0' };
const BYE_CODE: Record<ByeKind, string> = { pairing: 'U', full: 'F', half: 'H', zero: 'Z', absent: '-' };

/** The event as TRF-2026: header, `142`, `152`, `162`, the `###` advantage notes, player lines. */
export function trfFromEvent(event: Event): TrfDocument {
  const cards = scoreCards(event);
  const rankOf = new Map(standings(event).map((r) => [r.start, r.rank]));
  const rounds = Math.max(0, ...event.rounds.map((r) => r.number));
  const first = firstColourUsed(event);
  const other = (text: string): TrfOtherLine => ({ kind: 'other', line: 0, code: text.slice(0, 3), text });
  const head: [string, string | undefined][] = [
    ['012', event.name],
    ['022', event.city],
    ['032', event.federation],
    ['042', event.startDate],
    ['052', event.endDate],
    ['062', String(event.players.length)],
    ['102', event.chiefArbiter],
    ['122', event.timeControl],
    ['142', event.plannedRounds === undefined ? undefined : String(event.plannedRounds)],
    ['152', first === undefined ? undefined : first === 'white' ? 'W' : 'B'],
  ];
  const lines: TrfLine[] = head
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([c, v]) => other(`${c} ${v}`));
  lines.push(other(pointSystemLine(event.points)));
  for (const round of event.rounds)
    for (const p of round.pairings)
      if (p.result?.kind === 'game' && p.result.advantage) {
        const [plus, minus] = p.result.advantage === 'white' ? [p.white, p.black] : [p.black, p.white];
        lines.push(other(advantageNote(round.number, plus, minus)));
      }
  for (const player of event.players) {
    const mine = new Map((cards.get(player.start) ?? []).map((c) => [c.round, c]));
    const paired = new Map<number, { opponent: number; colour: Side }>();
    for (const round of event.rounds)
      for (const p of round.pairings) {
        if (p.white === player.start) paired.set(round.number, { opponent: p.black, colour: 'white' });
        if (p.black === player.start) paired.set(round.number, { opponent: p.white, colour: 'black' });
      }
    const cells: TrfCell[] = Array.from({ length: rounds }, (_, i) => {
      const card = mine.get(i + 1);
      const pairing = paired.get(i + 1);
      if (pairing) {
        const colour = pairing.colour === 'white' ? 'w' : 'b';
        const code = !card ? ' ' : card.played ? CODE[card.outcome] : card.outcome === 'win' ? '+' : '-';
        return { opponent: pairing.opponent, colour, code };
      }
      if (card?.bye) return { opponent: 0, colour: '-', code: BYE_CODE[card.bye] };
      return { opponent: null, colour: ' ', code: ' ' };
    });
    lines.push({
      kind: 'player',
      line: 0,
      start: player.start,
      sex: player.sex ?? '',
      title: player.title ?? '',
      name: player.name,
      rating: player.rating === undefined ? '' : String(player.rating),
      federation: player.federation ?? '',
      id: player.fmjdId ?? '',
      birth: player.birth ?? '',
      points: formatPoints(totalPoints(cards.get(player.start) ?? [])),
      rank: String(rankOf.get(player.start) ?? ''),
      cells,
    });
  }
  return { lines, eol: '\n', finalEol: true };
}

export const writeTrf = (event: Event): string => writeTrfDocument(trfFromEvent(event));
