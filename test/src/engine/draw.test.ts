// Draw rules per profile (docs/rules.md "Draws", articles 6.1–6.5 and the club regulation) and 7.2.
import { describe, expect, it } from 'vitest';
import {
  advance,
  type DrawRules,
  type GameState,
  legalMoves,
  type Move,
  parseFen,
  play,
  type Position,
  resolveMove,
  startGame,
  type Variant,
} from '../../../src/engine/index.ts';

function position(fen: string, variant: Variant = 'international'): Position {
  const r = parseFen(fen, { variant });
  if (!r.ok) throw new Error(`${fen}: ${r.error.message}`);
  return r.value;
}

function start(fen: string, rules: DrawRules, variant?: Variant): GameState {
  return startGame(position(fen, variant), rules);
}

function playText(s: GameState, ...texts: string[]): GameState {
  for (const t of texts) {
    const r = resolveMove(s.position, t);
    if (!r.ok) throw new Error(`${t}: ${r.error.message}`);
    s = advance(s, r.value);
  }
  return s;
}

/**
 * Plays quiet king moves chosen deterministically so that no position stands on the board a third
 * time and the opponent never gets a capture; `allow` may restrict the choice further.
 */
function kingWalk(
  s: GameState,
  plies: number,
  allow: (m: Move, s: GameState) => boolean = () => true,
): GameState[] {
  const states: GameState[] = [];
  for (let i = 0; i < plies && !s.over; i++) {
    const choice = legalMoves(s.position).find((m) => {
      if (m.captured.length > 0 || (m.piece !== 'W' && m.piece !== 'B') || !allow(m, s)) return false;
      const next = play(s.position, m);
      if (legalMoves(next).some((x) => x.captured.length > 0)) return false;
      return s.counters.history.filter((h) => h === next.hash).length < 2;
    });
    if (!choice) throw new Error(`no quiet king move at ply ${s.ply}`);
    s = advance(s, choice);
    states.push(s);
  }
  return states;
}

/** The end after `plies` plies of kings walking from `s`, the game still on one ply before. */
function endAfter(s: GameState, plies: number): GameState['over'] {
  const states = kingWalk(s, plies);
  expect(states[plies - 2].over).toBeUndefined();
  return states[plies - 1].over;
}

const fmjd: DrawRules = { profile: 'fmjd' };
const fmjd64: DrawRules = { profile: 'fmjd-64' };
const club: DrawRules = { profile: 'club' };

describe('7.2 a player with no pieces or no legal move on their turn loses', () => {
  it('7.2 no pieces left: capturing the last piece wins', () => {
    const s = playText(start('W:W28:B23', fmjd), '28x19');
    expect(s.over).toEqual({ result: '2-0', reason: 'black has no pieces left', rule: '7.2' });
  });
  it('7.2 all pieces blocked: the side to move loses, also at the start', () => {
    const s = start('B:W50:B45', fmjd);
    expect(s.over).toMatchObject({ result: '2-0', rule: '7.2', reason: 'black cannot move' });
    expect(start('W:W50:B45', fmjd).over).toBeUndefined();
  });
  it('7.2 a white loss is 0-2', () => {
    expect(start('W:B1', fmjd).over).toMatchObject({ result: '0-2', rule: '7.2' });
  });
  it('a finished game stays finished', () => {
    const s = start('B:W50:B45', fmjd);
    expect(advance(s, legalMoves(position('W:W50:B45'))[0])).toBe(s);
  });
});

// Kings on 50 and 1 with a man each that never moves: no 6.3/6.4 class.
const SHUFFLE = 'W:WK50,46:BK1,5';

describe('6.1 threefold repetition with the same player to move', () => {
  it('6.1 the third occurrence draws, the second does not (the start counts once)', () => {
    let s = start(SHUFFLE, fmjd);
    expect(s.counters.repetition).toBe(1);
    s = playText(s, '50-44', '1-7', '44-50', '7-1');
    expect(s.counters.repetition).toBe(2);
    expect(s.over).toBeUndefined();
    s = playText(s, '50-44', '1-7', '44-50');
    expect(s.over).toBeUndefined();
    s = playText(s, '7-1');
    expect(s.counters.repetition).toBe(3);
    expect(s.over).toMatchObject({ result: '1-1', rule: '6.1' });
  });
  it('6.1 the same placement with the other side to move is another position', () => {
    const s0 = start(SHUFFLE, fmjd);
    // White goes round a triangle (50-44-39-50) while Black goes back and forth.
    const s = playText(s0, '50-44', '1-7', '44-39', '7-1', '39-50');
    expect(s.position.toBoardString()).toBe(s0.position.toBoardString());
    expect(s.position.turn).toBe('black');
    expect(s.counters.repetition).toBe(1);
  });
  it('6.1 a man move starts the count again (earlier positions cannot return)', () => {
    let s = playText(start(SHUFFLE, fmjd), '50-44', '1-7', '44-50', '7-1');
    expect(s.counters.history).toHaveLength(5);
    s = playText(s, '46-41');
    expect(s.counters.history).toEqual([s.position.hash]);
    expect(s.counters.repetition).toBe(1);
  });
  it('6.1 applies in every profile', () => {
    for (const rules of [fmjd64, club]) {
      const variant = rules.profile === 'fmjd-64' ? 'brazilian' : 'international';
      const fen = variant === 'brazilian' ? 'W:WK32,21:BK1,12' : SHUFFLE;
      const [a, b] = variant === 'brazilian' ? ['32-27', '1-6'] : ['50-44', '1-7'];
      const back = (m: string) => m.split('-').reverse().join('-');
      const s = playText(start(fen, rules, variant), a, b, back(a), back(b), a, b, back(a), back(b));
      expect(s.over?.rule).toBe('6.1');
    }
  });
});

describe('6.2 25 moves each with kings only, no man moved, no capture (64: 20 moves)', () => {
  it('6.2 fmjd: draw on the 50th king ply, not the 49th', () => {
    const states = kingWalk(start(SHUFFLE, fmjd), 50);
    expect(states[48].over).toBeUndefined();
    expect(states[48].counters.kingOnlyPlies).toBe(49);
    expect(states[49].over).toMatchObject({ result: '1-1', rule: '6.2' });
  });
  it('6.2 a man move resets the count', () => {
    let s = kingWalk(start(SHUFFLE, fmjd), 29)[28];
    expect(s.counters.kingOnlyPlies).toBe(29);
    const man = legalMoves(s.position).find((m) => m.piece === 'b')!;
    s = advance(s, man);
    expect(s.counters.kingOnlyPlies).toBe(0);
    s = advance(s, legalMoves(s.position).find((m) => m.piece === 'W' && m.captured.length === 0)!);
    expect(s.counters.kingOnlyPlies).toBe(1);
  });
  it('6.2 a capture with a king resets the count', () => {
    let s = playText(start('B:WK50,46:BK1,5,17', fmjd), '1-7');
    expect(s.counters.kingOnlyPlies).toBe(1);
    const take = legalMoves(s.position)[0];
    expect([take.piece, take.captured.length]).toEqual(['W', 2]);
    s = advance(s, take);
    expect(s.counters.kingOnlyPlies).toBe(0);
  });
  it('6.2 fmjd-64: 20 moves (40 plies)', () => {
    expect(endAfter(start('W:WK32,29:BK1,4', fmjd64, 'brazilian'), 40)).toMatchObject({ rule: '6.2' });
  });
  it('6.2 is not a club rule', () => {
    const states = kingWalk(start(SHUFFLE, club), 60);
    expect(states.every((s) => s.over === undefined)).toBe(true);
  });
});

describe('6.3 three kings, two kings and a man, or a king and two men against one king: 16 moves each', () => {
  it('6.3 3 kings vs 1: draw when each has made 16 moves (32 plies)', () => {
    const s0 = start('W:WK47,K48,K49:BK3', fmjd);
    expect(s0.counters.endgame).toMatchObject({ rule: '6.3', plies: 0, limit: 32 });
    const states = kingWalk(s0, 32);
    expect(states[30].over).toBeUndefined();
    expect(states[31].over).toMatchObject({ result: '1-1', rule: '6.3' });
  });
  it('6.3 the count starts when the material arises (a capture)', () => {
    const s0 = start('W:WK46,K48,K49:BK3,23', fmjd);
    expect(s0.counters.endgame).toBeUndefined();
    // 46x19: the king takes the man on 23 and the 6.3 count starts at 0 after the capture.
    const s = playText(s0, '46x19');
    expect(s.counters.endgame).toMatchObject({ rule: '6.3', plies: 0 });
  });
  it('6.3 a promotion inside the class (2 kings + man → 3 kings) does not restart the count', () => {
    let s = start('W:WK46,K47,7:BK50', fmjd);
    expect(s.counters.endgame?.rule).toBe('6.3');
    s = kingWalk(s, 2)[1];
    expect(s.counters.endgame?.plies).toBe(2);
    s = playText(s, '7-1');
    expect(s.counters.endgame).toMatchObject({ rule: '6.3', plies: 3 });
  });
  it('6.3 → 6.4 when the lone king captures: a new count of 5 moves', () => {
    const s = playText(start('B:WK28,K47,K48:BK50', fmjd), '50x22');
    expect(s.counters.endgame).toMatchObject({ rule: '6.4', plies: 0, limit: 10 });
  });
  it('6.3 a king and two men: the class holds for men too', () => {
    expect(start('W:WK46,31,32:BK5', fmjd).counters.endgame?.rule).toBe('6.3');
    expect(start('W:WK46,31,32,33:BK5', fmjd).counters.endgame).toBeUndefined();
    expect(start('W:WK47,K48,K49:BK3,K4', fmjd).counters.endgame).toBeUndefined();
  });
});

describe('6.4 two kings, a king and a man, or one king against one king: 5 moves each', () => {
  for (const fen of ['W:WK48:BK3', 'W:WK48,K49:BK3', 'W:WK48,31:BK3', 'B:WK48:BK3,K4']) {
    it(`6.4 ${fen}: draw after 10 plies, not 9`, () => {
      const s0 = start(fen, fmjd);
      expect(s0.counters.endgame).toMatchObject({ rule: '6.4', limit: 10 });
      const states = kingWalk(s0, 10);
      expect(states[8].over).toBeUndefined();
      expect(states[9].over).toMatchObject({ result: '1-1', rule: '6.4' });
    });
  }
});

describe('6.5 draw with advantage (1+/1−): 6.3 counts 25 moves, the side 3 men ahead gets 1+', () => {
  const adv: DrawRules = { profile: 'fmjd', advantageDraw: true };
  it('6.5.3 6.3 counts 25 moves each (50 plies) instead of 16', () => {
    const s0 = start('W:WK47,K48,K49:BK3', adv);
    expect(s0.counters.endgame?.limit).toBe(50);
    const states = kingWalk(s0, 50);
    expect(states[31].over).toBeUndefined();
    expect(states[48].over).toBeUndefined();
    // 3 kings (6 men) against 1 king (2 men): White is 4 men ahead.
    expect(states[49].over).toMatchObject({ result: '1-1', rule: '6.3', advantage: 'white' });
  });
  it('6.5.2 no advantage under three men; none without the option; none in the 64 version', () => {
    expect(kingWalk(start('W:WK48:BK3', adv), 10)[9].over?.advantage).toBeUndefined();
    expect(kingWalk(start('W:WK47,K48,K49:BK3', fmjd), 32)[31].over?.advantage).toBeUndefined();
    const br = start('W:WK32,K31,K30:BK1', { profile: 'fmjd-64', advantageDraw: true }, 'brazilian');
    expect(br.counters.endgame?.limit).not.toBe(50);
  });
});

describe('6.3 / 6.4 in the 64-square version (fmjd-64)', () => {
  // Main diagonal of the 8×8 board: 29 25 22 18 15 11 8 4.
  const diagonal = new Set([29, 25, 22, 18, 15, 11, 8, 4]);
  it('6.3 64: the weaker king holding the main diagonal: 5 moves each', () => {
    const s0 = start('W:WK1,K2,K3:BK29', fmjd64, 'brazilian');
    expect(s0.counters.endgame).toMatchObject({ rule: '6.3', limit: 10 });
    const keep = (m: Move, s: GameState) =>
      s.position.turn === 'black' ? diagonal.has(m.to) : !diagonal.has(m.to);
    const states = kingWalk(s0, 10, keep);
    expect(states[8].over).toBeUndefined();
    expect(states[9].over).toMatchObject({ result: '1-1', rule: '6.3' });
  });
  it('6.3 64: leaving the diagonal stops the count; coming back starts it at 0', () => {
    const s0 = start('W:WK1,K2,K3:BK29', fmjd64, 'brazilian');
    let s = kingWalk(s0, 4, (m, st) =>
      st.position.turn === 'black' ? diagonal.has(m.to) : !diagonal.has(m.to),
    )[3];
    expect(s.counters.endgame?.plies).toBe(4);
    s = kingWalk(s, 2, (m, st) =>
      st.position.turn === 'black' ? !diagonal.has(m.to) : !diagonal.has(m.to),
    )[1];
    expect(s.counters.endgame).toBeUndefined();
  });
  it('6.3 64: three kings against one with the stronger side on the main diagonal: 15 moves', () => {
    const s0 = start('W:WK29,K2,K3:BK1', fmjd64, 'brazilian');
    expect(s0.counters.endgame).toMatchObject({ rule: '6.3', limit: 30 });
    const states = kingWalk(s0, 30, (m, st) => st.position.turn === 'black' || m.from !== 29);
    expect(states[28].over).toBeUndefined();
    expect(states[29].over?.rule).toBe('6.3');
  });
  it('6.3 64: otherwise only 6.2 applies (no endgame count)', () => {
    expect(start('W:WK1,K2,K3:BK32', fmjd64, 'brazilian').counters.endgame).toBeUndefined();
    expect(start('W:WK1,K2,6:BK32', fmjd64, 'brazilian').counters.endgame).toBeUndefined();
  });
  it('6.4 64: 5 moves each', () => {
    const s0 = start('W:WK1,K2:BK32', fmjd64, 'brazilian');
    expect(s0.counters.endgame).toMatchObject({ rule: '6.4', limit: 10 });
    expect(kingWalk(s0, 10)[9].over?.rule).toBe('6.4');
  });
});

describe('club profile (local regulation, docs/rules.md last paragraph of "Draws")', () => {
  it('club: one king against one king, or two kings against one, is drawn at once', () => {
    expect(start('W:WK46:BK5', club).over).toMatchObject({ result: '1-1', rule: 'club.kings-vs-king' });
    expect(start('B:WK46,K47:BK5', club).over).toMatchObject({ rule: 'club.kings-vs-king' });
    const s = playText(start('W:WK46,K47:BK5,23', club), '46x19');
    expect(s.over?.rule).toBe('club.kings-vs-king');
  });
  it('club: three kings against one: 15 moves each', () => {
    expect(endAfter(start('W:WK47,K48,K49:BK3', club), 30)?.rule).toBe('club.3-kings');
  });
  it('club: four kings against one: 5 moves each', () => {
    expect(endAfter(start('W:WK47,K48,K49,K50:BK3', club), 10)?.rule).toBe('club.4-kings');
  });
  it('club: two kings and a man against a king and a man: drawn if not won by the stronger side’s 10th move', () => {
    // White (stronger) to move: its 10th move is ply 19.
    expect(endAfter(start('W:WK47,K48,31:BK3,16', club), 19)?.rule).toBe('club.10-moves');
    // Black to move first: White's 10th move is ply 20.
    expect(endAfter(start('B:WK47,K48,31:BK3,16', club), 20)?.rule).toBe('club.10-moves');
  });
  it('club: 50 moves each without a change of material', () => {
    const states = kingWalk(start('W:WK50,K49,46:BK1,K2,5', club), 100);
    expect(states[98].over).toBeUndefined();
    expect(states[98].counters.sameMaterialPlies).toBe(99);
    expect(states[99].over?.rule).toBe('club.50-moves');
  });
  it('club: a capture or a promotion is a change of material', () => {
    let s = kingWalk(start('W:WK50,7:BK5,K15,36', club), 3)[2];
    expect(s.counters.sameMaterialPlies).toBe(3);
    s = advance(s, legalMoves(s.position).find((m) => m.piece === 'b')!);
    s = advance(s, legalMoves(s.position).find((m) => m.promotes)!);
    expect(s.counters.sameMaterialPlies).toBe(0);
  });
});
