// The end of the game in the record: fallen flags (proposed for the arbiter), what the arbiter enters
// (7.2.1 resignation, 7.3.1 draw by agreement, 7.2.4 refusal, draw offers) and Appendix G (G.4, G.5
// accept / postpone / reject, G.6) — results, clock settings and the PDN.
import { describe, expect, it } from 'vitest';
import { GameRecord } from '../../../src/game/index.ts';
import type { GameEvent, GameInfo } from '../../../src/game/types.ts';
import { clockReading, player } from './fixtures/helpers.ts';

const info = (timeControl?: string): GameInfo => ({
  board: 1,
  round: 1,
  variant: 'international',
  ...(timeControl ? { timeControl } : {}),
});
const reading = clockReading;

/** A record two moves in, its clock showing White to move with 90 s left. */
function twoMovesIn(timeControl = '3600', quickplayFinish = true, autoResult = false) {
  const rec = new GameRecord({ info: info(timeControl), quickplayFinish, autoResult });
  const p = player();
  rec.apply(p.move('32-28', 1000));
  rec.apply(p.move('19-23', 2000));
  rec.clockEvent(reading(2100, 90_000, 600_000, 'white'));
  return rec;
}
const kinds = (events: GameEvent[]) => events.map((e) => e.kind);

describe('flags in the record', () => {
  it('flag: an alert at the ply of the side to move, the loss proposed, the result kept for the arbiter', () => {
    const rec = twoMovesIn();
    const events = rec.clockEvent(reading(92_100, 0, 600_000, 'white'));
    expect(kinds(events)).toEqual(['clock', 'alert', 'result']);
    const s = rec.snapshot();
    expect(s.alerts.at(-1)).toMatchObject({ rule: 'flag', side: 'white', ply: 3 });
    expect(s.proposedResult).toEqual({ result: '0-2', reason: 'flag: White exceeded the time' });
    expect(s.result).toBe('*');
    expect(rec.toPdn()).toMatch(/flag fell \(time exceeded\)/);
  });

  it('autoResult writes the flag at once', () => {
    const rec = twoMovesIn('3600', true, true);
    rec.clockEvent(reading(92_100, 0, 600_000, 'white'));
    expect(rec.snapshot().result).toBe('0-2');
  });

  it('flags: both down in the last period proposes a draw; the alert names no side', () => {
    const rec = twoMovesIn();
    rec.clockEvent(reading(92_100, 0, 0, null));
    const alert = rec.snapshot().alerts.at(-1)!;
    expect(alert).toMatchObject({ rule: 'flags', ply: 3, params: {} });
    expect(alert).not.toHaveProperty('side');
    expect(alert.params).not.toHaveProperty('side');
    expect(alert.message).toMatch(/^Both flags fell\. Nobody can tell which fell first/);
    expect(rec.snapshot().proposedResult?.result).toBe('1-1');
    expect(rec.toPdn()).toMatch(/flags: Both flags fell\./);
  });

  it('flag: the alert carries its side as data too (params), for the texts in other languages', () => {
    const rec = twoMovesIn();
    rec.clockEvent(reading(92_100, 0, 600_000, 'white'));
    expect(rec.snapshot().alerts.at(-1)?.params).toEqual({ side: 'white' });
  });

  it("a board without a clock gets damlink's own: %clock in the PDN, the flag from the ticks", () => {
    const rec = new GameRecord({ info: info('60') });
    const p = player();
    rec.clockEvent({ t: 0, type: 'press', side: 'black' });
    rec.apply(p.move('32-28', 10_000));
    rec.clockEvent({ t: 10_000, type: 'press', side: 'white' });
    expect(rec.toPdn()).toMatch(/1\. 32-28 \{\[%clock w0:00:50 B0:01:00\]\}/);
    rec.clockEvent({ t: 71_000, type: 'tick' });
    expect(rec.snapshot().alerts.at(-1)).toMatchObject({ rule: 'flag', side: 'black', ply: 2 });
  });
});

describe('results the arbiter enters', () => {
  it('7.2.1: a resignation writes the loss and says so in the PDN', () => {
    const rec = twoMovesIn();
    const events = rec.act({ type: 'resign', side: 'white' }, 5000);
    expect(kinds(events)).toEqual(['action', 'result']);
    expect(rec.snapshot().result).toBe('0-2');
    expect(rec.toPdn()).toMatch(/19-23 \{[^}]*7\.2\.1: White resigned\} 0-2/);
  });

  it('7.3.1: a draw by agreement', () => {
    const rec = twoMovesIn();
    rec.act({ type: 'draw-agreed' }, 5000);
    expect(rec.snapshot().result).toBe('1-1');
    expect(rec.toPdn()).toMatch(/7\.3\.1: draw by agreement/);
  });

  it('7.2.4: refusing to follow the rules loses', () => {
    const rec = twoMovesIn();
    rec.act({ type: 'refusal', side: 'black' }, 5000);
    expect(rec.snapshot().result).toBe('2-0');
    expect(rec.toPdn()).toMatch(/7\.2\.4: Black refused to follow the rules/);
  });

  it('a draw offer is recorded and decides nothing', () => {
    const rec = twoMovesIn();
    rec.act({ type: 'draw-offer', side: 'black' }, 5000);
    expect(rec.snapshot().result).toBe('*');
    expect(rec.snapshot().actions).toEqual([
      { action: { type: 'draw-offer', side: 'black' }, t: 5000, ply: 2 },
    ]);
    expect(rec.toPdn()).toMatch(/Black offers a draw/);
  });

  it('nothing is entered once the result is written', () => {
    const rec = twoMovesIn();
    rec.act({ type: 'resign', side: 'white' }, 5000);
    expect(rec.act({ type: 'draw-agreed' }, 6000)).toEqual([]);
  });
});

describe('Appendix G', () => {
  it('G.4: 5 s a move for both and two minutes to the opponent, set on the clock', () => {
    const rec = twoMovesIn();
    const events = rec.act({ type: 'increment', side: 'white' }, 3100);
    expect(kinds(events)).toEqual(['action', 'clock-set', 'clock']);
    expect(rec.snapshot().clock).toMatchObject({ white: 89_000, black: 720_000 });
    expect(events[1]).toMatchObject({ white: 89_000, black: 720_000, running: 'white' });
    expect(rec.snapshot().quickplay).toEqual({ applies: true, incrementMs: 5000 });
    // The clock adds no increment: after White's press damlink sets White's time 5 s higher.
    rec.clockEvent({ t: 10_000, type: 'press', side: 'white' });
    const after = rec.clockEvent(reading(10_000, 80_000, 720_000, 'black'));
    expect(after.find((e) => e.kind === 'clock-set')).toMatchObject({ white: 85_000, black: 720_000 });
    expect(rec.toPdn()).toMatch(/G\.4: White asked for the increment/);
  });

  it('G.5 accepted: a draw', () => {
    const rec = twoMovesIn();
    rec.act({ type: 'claim', side: 'white', decision: 'accept' }, 3000);
    expect(rec.snapshot().result).toBe('1-1');
    expect(rec.toPdn()).toMatch(/G\.5: White's draw claim accepted/);
  });

  it('G.5 postponed: two minutes to the opponent, the claim waits for the end or a flag', () => {
    const rec = twoMovesIn();
    const events = rec.act({ type: 'claim', side: 'white', decision: 'postpone' }, 3100);
    expect(events.find((e) => e.kind === 'clock-set')).toMatchObject({ black: 720_000 });
    expect(rec.snapshot().quickplay?.postponed).toMatchObject({ side: 'white', ply: 2 });
    expect(rec.snapshot().result).toBe('*');
    // White's flag falls: the proposal says the claim waits for a decision, which comes: accepted.
    rec.clockEvent(reading(200_000, 0, 700_000, 'white'));
    expect(rec.snapshot().proposedResult?.reason).toMatch(
      /G\.5: White's draw claim is postponed: decide it now/,
    );
    rec.act({ type: 'claim', side: 'white', decision: 'accept' }, 9000);
    expect(rec.snapshot().result).toBe('1-1');
    expect(rec.snapshot().quickplay?.postponed).toBeUndefined();
  });

  it('G.5 rejected: two minutes to the opponent, play goes on', () => {
    const rec = twoMovesIn();
    const events = rec.act({ type: 'claim', side: 'white', decision: 'reject' }, 3100);
    expect(events.find((e) => e.kind === 'clock-set')).toMatchObject({ black: 720_000 });
    expect(rec.snapshot().result).toBe('*');
    expect(rec.toPdn()).toMatch(/G\.5: White's draw claim rejected — 2 min to Black/);
  });

  it('G.6: without an arbiter the claim ends the game; the final position and record are kept', () => {
    const rec = twoMovesIn();
    const fen = rec.snapshot().fen;
    rec.act({ type: 'claim-ends', side: 'white' }, 3000);
    const p = player();
    p.move('32-28', 0);
    p.move('19-23', 0);
    expect(rec.apply(p.move('28x19', 4000))).toEqual([]);
    const s = rec.snapshot();
    expect(s.moves).toHaveLength(2);
    expect(s.quickplay?.ended).toMatchObject({ side: 'white', ply: 2, fen });
    expect(s.proposedResult?.reason).toMatch(/^G\.6/);
    expect(rec.toPdn()).toContain(`final position ${fen}`);
  });

  it('does not apply in blitz (G.3), nor when not announced (G.2)', () => {
    expect(twoMovesIn('300').act({ type: 'increment', side: 'white' }, 3000)).toEqual([]);
    const unannounced = twoMovesIn('3600', false);
    expect(unannounced.act({ type: 'claim', side: 'white', decision: 'accept' }, 3000)).toEqual([]);
    expect(unannounced.snapshot().quickplay).toMatchObject({
      applies: false,
      reason: expect.stringMatching(/^G\.2/),
    });
  });
});
