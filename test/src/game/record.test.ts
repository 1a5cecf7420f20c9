import { describe, expect, it } from 'vitest';
import { writeFen } from '../../../src/engine/index.ts';
import { drawRulesFor, GameRecord } from '../../../src/game/index.ts';
import type { GameEvent, GameInfo } from '../../../src/game/types.ts';
import type { Alert } from '../../../src/tracker/types.ts';
import { clockReading, player } from './fixtures/helpers.ts';

const info: GameInfo = {
  board: 3,
  round: 2,
  event: 'Test Open',
  site: 'Hoogeveen',
  date: '2026.11.29',
  white: 'Baliakin, Alexander',
  black: 'Sijbrands, Ton',
  variant: 'international',
};

const alert = (ply: number, rule: Alert['rule'], t: number): Alert => ({
  id: `${ply}-${rule}-1`,
  rule,
  ply,
  side: ply % 2 === 1 ? 'white' : 'black',
  message: 'piece touched, another one moved',
  t,
  events: [],
});

describe('GameRecord: versioned events', () => {
  it('numbers every event of the board by one, starting after the current version', () => {
    const rec = new GameRecord({ info });
    const p = player();
    const events: GameEvent[] = [
      ...rec.apply(p.move('32-28', 1000)),
      ...rec.apply(p.move('19-23', 2000)),
      ...rec.apply(p.move('28x19', 3000)),
    ];
    expect(events.map((e) => [e.kind, e.version, e.board, e.t])).toEqual([
      ['move', 1, 3, 1000],
      ['move', 2, 3, 2000],
      ['move', 3, 3, 3000],
    ]);
    const snap = rec.snapshot();
    expect(snap.version).toBe(3);
    expect(snap.moves.map((m) => m.pdn)).toEqual(['32-28', '19-23', '28x19']);
    expect(snap.moves[2].captured).toEqual([23]);
    expect(snap.fen).toBe(writeFen(p.position));
    expect(snap.result).toBe('*');
  });

  it('since(v) gives what a client missed, [] when current, undefined when no longer kept', () => {
    const rec = new GameRecord({ info, keepEvents: 3 });
    const p = player();
    for (const [i, m] of ['32-28', '18-23', '37-32', '12-18', '41-37'].entries())
      rec.apply(p.move(m, i * 1000));
    expect(rec.since(5)).toEqual([]);
    expect(rec.since(3)?.map((e) => e.version)).toEqual([4, 5]);
    expect(rec.since(2)?.map((e) => e.version)).toEqual([3, 4, 5]);
    expect(rec.since(1)).toBeUndefined();
    expect(rec.since(9)).toBeUndefined();
  });

  it('moves are written as the engine writes them: the full path when two captures share from and to', () => {
    // A king on 21 can take four pieces two ways, both ending on 42 (PDN 3.0 path needed).
    const fen = 'W:WK21:B10,12,13,14,18,23,29,32,38';
    const rec = new GameRecord({ info, startFen: fen });
    const p = player(fen);
    const out = p.move('21x3x20x33x42', 1);
    if (out.type !== 'move') throw new Error('move');
    rec.apply({ ...out, pdn: '21x42' });
    expect(rec.snapshot().moves[0].pdn).toBe('21x3x20x33x42');
    // A move the engine cannot place (position out of step) keeps the tracker's text.
    const other = new GameRecord({ info });
    other.apply({ ...out, pdn: '21x42' });
    expect(other.snapshot().moves[0].pdn).toBe('21x42');
  });

  it('a snapshot is a value: later events do not change it', () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.apply(p.move('32-28', 1));
    const snap = rec.snapshot();
    rec.apply(p.move('18-23', 2));
    expect(snap.moves).toHaveLength(1);
    expect(snap.version).toBe(1);
  });

  it('info and state changes are events; repeating the same value is not', () => {
    const rec = new GameRecord({ info });
    expect(rec.setState('active', 10, 'DB-7')).toMatchObject([
      { kind: 'state', state: 'active', serial: 'DB-7' },
    ]);
    expect(rec.setState('active', 11)).toEqual([]);
    expect(rec.setInfo({ white: 'Schwarzman, Alexander', board: 99 }, 12)).toMatchObject([
      { kind: 'info', info: { white: 'Schwarzman, Alexander', board: 3 } },
    ]);
    expect(rec.setInfo({ white: 'Schwarzman, Alexander' }, 13)).toEqual([]);
    expect(rec.snapshot()).toMatchObject({ state: 'active', serial: 'DB-7', version: 2 });
  });
});

describe('GameRecord: clocks', () => {
  it("a move's clock is the first reading after it where the mover's clock stopped", () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.clockEvent(clockReading(0, 5_400_000, 5_400_000, 'white'));
    rec.apply(p.move('32-28', 30_000));
    expect(rec.snapshot().moves[0].clock).toBeUndefined();
    const ev = rec.clockEvent(clockReading(30_100, 5_370_000, 5_400_000, 'black'));
    expect(ev).toMatchObject([{ kind: 'clock', white: 5_370_000, running: 'black' }]);
    // Later readings while black thinks do not change white's move.
    rec.clockEvent(clockReading(40_000, 5_370_000, 5_390_000, 'black'));
    // Press came before the move was settled: the move takes the current reading.
    rec.clockEvent(clockReading(50_000, 5_370_000, 5_380_000, 'white'));
    rec.apply(p.move('18-23', 50_200));
    const moves = rec.snapshot().moves;
    expect(moves[0].clock).toEqual({ white: 5_370_000, black: 5_400_000, running: 'black' });
    expect(moves[1].clock).toEqual({ white: 5_370_000, black: 5_380_000, running: 'white' });
    expect(rec.snapshot().clock).toEqual({ white: 5_370_000, black: 5_380_000, running: 'white', t: 50_000 });
  });

  it('an unchanged clock reading is no event', () => {
    const rec = new GameRecord({ info });
    rec.clockEvent(clockReading(0, 1000, 1000, null));
    expect(rec.clockEvent(clockReading(5, 1000, 1000, null))).toEqual([]);
    expect(rec.currentVersion).toBe(1);
  });
});

describe('GameRecord: alerts and arbiter decisions (5.4.x)', () => {
  it('5.4.6 alert attaches to its move; the decision is recorded on it', () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.apply(p.move('32-28', 1000));
    const a = alert(1, '5.4.6', 1100);
    expect(rec.apply({ type: 'alert', t: 1100, alert: a })).toMatchObject([
      { kind: 'alert', version: 2, alert: { id: '1-5.4.6-1', board: 3, rule: '5.4.6' } },
    ]);
    expect(rec.snapshot().moves[0].alerts).toEqual(['1-5.4.6-1']);
    expect(rec.decide({ alertId: a.id, kind: 'stands' }, 2000)).toMatchObject([
      { kind: 'decision', alertId: a.id, decision: { kind: 'stands' }, version: 3 },
    ]);
    expect(rec.snapshot().alerts[0].decision).toEqual({ alertId: a.id, kind: 'stands', t: 2000 });
    expect(rec.decide({ alertId: 'nope', kind: 'stands' }, 2001)).toEqual([]);
  });

  it('an alert raised before its move is attached when the move arrives', () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.apply({ type: 'alert', t: 900, alert: alert(1, '5.4.1', 900) });
    rec.apply(p.move('32-28', 1000, ['5.4.1']));
    expect(rec.snapshot().moves[0].alerts).toEqual(['1-5.4.1-1']);
  });
});

describe('GameRecord: game end and result (7.x)', () => {
  it('proposes 2-0 when black has no piece left; the arbiter confirms it', () => {
    const rec = new GameRecord({ info, startFen: 'W:W28:B23' });
    const p = player('W:W28:B23');
    const events = rec.apply(p.move('28x19', 1000));
    expect(events.map((e) => e.kind)).toEqual(['move', 'result']);
    expect(events[1]).toMatchObject({
      result: '*',
      proposed: { result: '2-0', reason: '7.2: black has no pieces left' },
    });
    expect(rec.snapshot().result).toBe('*');
    expect(rec.snapshot().proposedResult?.result).toBe('2-0');
    expect(rec.setResult('2-0', 2000)).toMatchObject([{ kind: 'result', result: '2-0' }]);
    expect(rec.snapshot().proposedResult).toBeUndefined();
    expect(rec.toPdn()).toContain('[Result "2-0"]');
  });

  it('proposes a loss for the side that cannot move', () => {
    // The black man on 35 (edge) is blocked by 40, with 44 behind it.
    const fen = 'W:W40,44,50,33:B35';
    const rec = new GameRecord({ info, startFen: fen });
    const p = player(fen);
    const events = rec.apply(p.move('33-28', 1000));
    expect(events.at(-1)).toMatchObject({
      kind: 'result',
      proposed: { result: '2-0', reason: '7.2: black cannot move' },
    });
  });

  it('6.1: the third repetition proposes a draw (fmjd profile)', () => {
    const fen = 'W:WK46,35:BK4,16';
    const rec = new GameRecord({ info, startFen: fen, drawProfile: 'fmjd' });
    const p = player(fen);
    const cycle = ['46-41', '4-9', '41-46', '9-4'];
    const kinds = [...cycle, ...cycle].flatMap((m, i) => rec.apply(p.move(m, i)).map((e) => e.kind));
    expect(kinds.filter((k) => k === 'result')).toHaveLength(1);
    expect(kinds.at(-1)).toBe('result');
    expect(rec.snapshot().proposedResult).toEqual({
      result: '1-1',
      reason: '6.1: the same position with white to move for the third time',
    });
  });

  it('6.4: two kings against one draw after 5 moves each; club draws it at once', () => {
    const fen = 'W:WK47,K50:BK3';
    const moves = ['47-41', '3-8', '41-36', '8-2', '36-31', '2-7', '31-26', '7-1', '26-21', '1-6'];
    const fmjd = new GameRecord({ info, startFen: fen, drawProfile: 'fmjd' });
    const p = player(fen);
    const proposals = moves.map((m, i) => fmjd.apply(p.move(m, i)).filter((e) => e.kind === 'result'));
    expect(proposals.slice(0, 9).flat()).toEqual([]);
    expect(proposals[9]).toMatchObject([
      { proposed: { result: '1-1', reason: '6.4: 5 moves each in this endgame without a win' } },
    ]);
    const club = new GameRecord({ info, startFen: fen, drawProfile: 'club' });
    expect(club.apply(player(fen).move('47-41', 1)).at(-1)).toMatchObject({
      kind: 'result',
      proposed: { result: '1-1', reason: expect.stringMatching(/^club\.kings-vs-king: /) },
    });
  });

  it('autoResult writes the result at once', () => {
    const rec = new GameRecord({ info, startFen: 'W:W28:B23', autoResult: true });
    const p = player('W:W28:B23');
    expect(rec.apply(p.move('28x19', 1000)).at(-1)).toMatchObject({ kind: 'result', result: '2-0' });
    expect(rec.snapshot().result).toBe('2-0');
    expect(rec.snapshot().proposedResult).toBeUndefined();
  });

  it('a takeback withdraws the proposal and drops the moves after its ply', () => {
    const rec = new GameRecord({ info, startFen: 'W:W28,38:B23' });
    const p = player('W:W28,38:B23');
    const start = p.position;
    rec.apply(p.move('28x19', 1000));
    expect(rec.snapshot().proposedResult).toBeDefined();
    const ev = rec.apply({ type: 'takeback', t: 2000, ply: 0, fen: 'W:W28,38:B23' });
    expect(ev.map((e) => e.kind)).toEqual(['takeback', 'result']);
    expect(ev[1]).not.toHaveProperty('proposed');
    const snap = rec.snapshot();
    expect(snap.moves).toEqual([]);
    expect(snap.proposedResult).toBeUndefined();
    expect(snap.fen).toBe(snap.startFen);
    expect(start.turn).toBe('white');
  });

  it('the result gesture (kings on the centre) proposes the result shown', () => {
    const rec = new GameRecord({ info });
    const ev = rec.apply({ type: 'result-gesture', t: 5, result: '1-1' });
    expect(ev).toMatchObject([{ kind: 'result', result: '*', proposed: { result: '1-1' } }]);
    expect(rec.setResult('1-1', 6)).toHaveLength(1);
    expect(rec.snapshot().result).toBe('1-1');
  });

  it('a new game starts over with a snapshot event; versions keep rising', () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.apply(p.move('32-28', 1));
    rec.apply({ type: 'alert', t: 2, alert: alert(2, '5.4.1', 2) });
    const ev = rec.apply({
      type: 'new-game',
      t: 3,
      fen: 'W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20',
    });
    expect(ev).toHaveLength(1);
    expect(ev[0]).toMatchObject({ kind: 'new-game', version: 3 });
    if (ev[0].kind !== 'new-game') throw new Error('kind');
    expect(ev[0].snapshot).toMatchObject({ version: 3, moves: [], alerts: [], result: '*' });
  });
});

describe('draw rule profiles', () => {
  it('names map to the engine rules; the 64-square game defaults to fmjd-64', () => {
    expect(drawRulesFor('international')).toEqual({ profile: 'fmjd' });
    expect(drawRulesFor('brazilian')).toEqual({ profile: 'fmjd-64' });
    expect(drawRulesFor('international', 'advantage')).toEqual({ profile: 'fmjd', advantageDraw: true });
    expect(drawRulesFor('brazilian', 'club')).toEqual({ profile: 'club' });
    expect(drawRulesFor('international', 'nonsense')).toEqual({ profile: 'fmjd' });
  });
});

describe('GameRecord: corrections on the board and moves recorded again (5.4, 5.7)', () => {
  it('a correction removes the irregular move, marks its alert, and the legal move takes the ply', () => {
    const rec = new GameRecord({ info });
    const p = player();
    rec.apply(p.move('32-28', 1000));
    const before = writeFen(p.position);
    // Black's "move" marked 5.4.1 … then put back by the players.
    rec.apply(p.move('19-23', 2000, ['5.4.1']));
    rec.apply({ type: 'alert', t: 2000, alert: alert(2, '5.4.1', 2000) });
    const events = rec.apply({ type: 'correction', t: 3000, ply: 1, fen: before, alertIds: ['2-5.4.1-1'] });
    expect(events.map((e) => e.kind)).toEqual(['takeback', 'alert']);
    const corrected = events[1];
    expect(corrected.kind === 'alert' && corrected.alert.correctedOnBoard).toEqual({ t: 3000 });
    const snap = rec.snapshot();
    expect(snap.moves.map((m) => m.pdn)).toEqual(['32-28']);
    expect(snap.fen).toBe(before);
    expect(rec.toPdn()).toContain('corrected on the board');
  });

  it('a move of a ply already recorded replaces it', () => {
    const rec = new GameRecord({ info });
    const p = player('B:W46:BK16');
    rec.apply(p.move('16-11', 1000));
    const q = player('B:W46:BK16');
    rec.apply(q.move('16-7', 1500));
    const snap = rec.snapshot();
    expect(snap.moves.map((m) => [m.ply, m.pdn])).toEqual([[1, '16-7']]);
    expect(snap.fen).toBe(writeFen(q.position));
  });
});
