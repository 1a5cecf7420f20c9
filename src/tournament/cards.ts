// Each player's score card: one line per finished round, the view the points, the tie-breaks and
// the TRF player lines are computed from.
import type { ByeKind, Side, Event, PairingResult, PointSystem, Round } from './types.ts';

export type Outcome = 'win' | 'draw' | 'loss';

export interface Card {
  round: number;
  /** Absent for a bye or an absence. */
  opponent?: number;
  colour?: Side;
  outcome: Outcome;
  /** Played over the board (a forfeit and a bye are not). */
  played: boolean;
  points: number;
  /** A draw with advantage: `plus` for the player who had it (1+), `minus` for the other (1−). */
  advantage?: 'plus' | 'minus';
  /** The bye's kind, for a round without an opponent. */
  bye?: ByeKind;
}

const other = (c: Side): Side => (c === 'white' ? 'black' : 'white');

function outcomeFor(result: PairingResult, side: Side): Outcome {
  if (result.kind === 'forfeit') return result.winner === side ? 'win' : 'loss';
  if (result.score === '1-1') return 'draw';
  return (result.score === '2-0') === (side === 'white') ? 'win' : 'loss';
}

export function pointsFor(outcome: Outcome, played: boolean, points: PointSystem): number {
  if (outcome === 'win') return points.win;
  if (outcome === 'draw') return points.draw;
  return played ? points.loss : points.forfeitLoss;
}

const BYE_OUTCOME: Record<ByeKind, Outcome> = {
  pairing: 'win',
  full: 'win',
  half: 'draw',
  zero: 'loss',
  absent: 'loss',
};

function byePoints(kind: ByeKind, points: PointSystem): number {
  if (kind === 'pairing') return points.pairingBye;
  return pointsFor(BYE_OUTCOME[kind], false, points);
}

function gameCard(
  round: number,
  opponent: number,
  side: Side,
  result: PairingResult,
  points: PointSystem,
): Card {
  const outcome = outcomeFor(result, side);
  const played = result.kind === 'game';
  const card: Card = {
    round,
    opponent,
    colour: side,
    outcome,
    played,
    points: pointsFor(outcome, played, points),
  };
  if (result.kind === 'game' && result.advantage)
    return { ...card, advantage: result.advantage === side ? 'plus' : 'minus' };
  return card;
}

/** One round's cards (finished games and byes only), per starting rank. */
export function roundCards(round: Round, points: PointSystem): Map<number, Card> {
  const cards = new Map<number, Card>();
  for (const p of round.pairings) {
    if (!p.result) continue;
    cards.set(p.white, gameCard(round.number, p.black, 'white', p.result, points));
    cards.set(p.black, gameCard(round.number, p.white, other('white'), p.result, points));
  }
  for (const b of round.byes)
    cards.set(b.player, {
      round: round.number,
      outcome: BYE_OUTCOME[b.kind],
      played: false,
      points: byePoints(b.kind, points),
      bye: b.kind,
    });
  return cards;
}

/** Every player's cards, in round order. */
export function scoreCards(event: Pick<Event, 'players' | 'rounds' | 'points'>): Map<number, Card[]> {
  const cards = new Map<number, Card[]>(event.players.map((p) => [p.start, []]));
  for (const round of [...event.rounds].sort((a, b) => a.number - b.number))
    for (const [start, card] of roundCards(round, event.points)) cards.get(start)?.push(card);
  return cards;
}

export const totalPoints = (cards: readonly Card[]): number => cards.reduce((n, c) => n + c.points, 0);
