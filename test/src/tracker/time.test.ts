// Time only from events: settle windows expire with `tick`s (4.10 the move is complete when let go;
// decided after the settle time), the stall time reads an irregular move on boards without a clock.
import { describe, expect, it } from 'vitest';
import { createTracker } from '../../../src/tracker/index.ts';
import { fen, Position, type Run, run, Script, summarise } from './fixtures/hands.ts';

describe('time from events', () => {
  it('4.10: a move is decided when the settle window has passed, measured by tick times', () => {
    const tracker = createTracker({ variant: 'international' });
    const s = new Script(Position.initial()).carry(32, 28);
    const putAt = s.t;
    for (const e of s.events) tracker.push(e);
    expect(tracker.push({ t: putAt + 249, type: 'tick' })).toEqual([]);
    expect(tracker.state.pending).toEqual([28, 32]);
    const out = tracker.push({ t: putAt + 250, type: 'tick' });
    expect(out).toMatchObject([{ type: 'move', pdn: '32-28', t: putAt + 250, ply: 1 }]);
    expect(tracker.state.pending).toEqual([]);
  });

  it('settleMs is configurable', () => {
    const tracker = createTracker({ variant: 'international', settleMs: 600 });
    const s = new Script(Position.initial()).carry(32, 28);
    for (const e of s.events) tracker.push(e);
    expect(tracker.push({ t: s.t + 500, type: 'tick' })).toEqual([]);
    expect(tracker.push({ t: s.t + 600, type: 'tick' })).toMatchObject([{ type: 'move', pdn: '32-28' }]);
  });

  it('5.4.2 without a clock: read after the stall time (alertAfterMs), not before', () => {
    const start = fen('W:W28:B5');
    const tracker = createTracker({ variant: 'international', start });
    const s = new Script(start).carry(28, 32);
    for (const e of s.events) tracker.push(e);
    expect(tracker.push({ t: s.t + 3999, type: 'tick' })).toEqual([]);
    const r = summarise(tracker, tracker.push({ t: s.t + 4000, type: 'tick' }));
    expect(r.alerts.map((a) => [a.rule, a.ply, a.side, a.t])).toEqual([['5.4.2', 1, 'white', s.t + 4000]]);
    expect(r.moves).toEqual(['28-32']);
  });

  it('flush settles what is pending at the end of a replay', () => {
    const tracker = createTracker({ variant: 'international' });
    const s = new Script(Position.initial()).carry(32, 28);
    for (const e of s.events) tracker.push(e);
    expect(summarise(tracker, tracker.flush(s.t)).moves).toEqual(['32-28']);
  });

  describe('the press grace (changes reported up to 100 ms after a press belong before it)', () => {
    const rulesOf = (r: Run) => r.alerts.map((a) => `${a.rule}@${a.ply}:${a.side}`);

    it('4.12: a captured piece reported taken off 50 ms after the press is part of the capture', () => {
      const start = fen('W:W28:B23,5');
      const s = new Script(start).carry(28, 19).press('white').wait(50).remove(23).wait(1000).tick();
      const r = run(s.events, { start });
      expect(r.moves).toEqual(['28x19']);
      expect(rulesOf(r)).toEqual([]);
    });

    it("5.4.7: the mover's own piece reported taken off 50 ms after the press is still the mover's", () => {
      const start = fen('W:W38,40:B3');
      const s = new Script(start)
        .carry(38, 33)
        .wait(100)
        .press('white')
        .wait(50)
        .remove(40)
        .wait(1000)
        .tick();
      const r = run(s.events, { start });
      expect(r.moves).toEqual(['38-33']);
      expect(rulesOf(r)).toEqual(['5.4.7@1:white']);
    });

    it.each([
      ['in the same instant (a burst read after a hold-up)', 0],
      ['40 ms after it (a blitz hand waiting over the board)', 40],
    ])('the opponent lifting a piece %s starts their move: no 5.4.7', (_, gap) => {
      const s = new Script(Position.initial()).carry(32, 28, 0).press('white').wait(gap);
      s.carry(19, 23, 0).press('black').wait(1000).tick();
      const r = run(s.events);
      expect(r.moves).toEqual(['32-28', '19-23']);
      expect(rulesOf(r)).toEqual([]);
    });

    it.each([
      ['a board of pieces', false],
      ['a board of occupancy alone', true],
    ])(
      '4.12: the opponent’s new square reported before its old one, in the burst of the press, on %s: no unknown-position',
      (_, occupancyOnly) => {
        // A held-up daemon reads the mover's press and the opponent's whole move in one burst, all
        // stamped alike; the opponent's put comes first (new square before old).
        const s = new Script(Position.initial(), occupancyOnly).carry(32, 28, 100).wait(100);
        s.press('white').put(23, 'b');
        s.lift(19);
        s.press('black').wait(1000).tick();
        const r = run(s.events, { occupancyOnly });
        expect(r.moves).toEqual(['32-28', '19-23']);
        expect(rulesOf(r)).toEqual([]);
      },
    );
  });
});
