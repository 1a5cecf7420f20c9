// 4.11 as a real board sees it (docs/irregularities.md, "What the board can order"): changes that
// arrive back to back, or in one scan of a board that reports by scans, have no order of their own,
// so only what every order the board allows shows is an irregularity; and a one-piece capture's
// piece taken off before the landing completes that capture (4.4) — no 5.4.10.
import { describe, expect, it } from 'vitest';
import type { BoardEvent, Side } from '../../../firmware-protocol/events.ts';
import { createBoardEncoder, createDecoder, type ProtocolName } from '../../../firmware-protocol/index.ts';
import type { Move } from '../../../src/engine/index.ts';
import { fen, movesOnly, type Position, run, Script, scanningHello, sequence } from './fixtures/hands.ts';

const rulesOf = (r: ReturnType<typeof run>) => r.alerts.map((a) => `${a.rule}@${a.ply}:${a.side}`);

/** The capturing piece lifted, its one captured piece taken off while it is in the hand, then let go. */
function takenBeforeLanding(start: Position, text: string, liftToTake = 250, takeToLand = 300): Script {
  const m = sequence(start, text);
  const s = new Script(start);
  const piece = s.lift(m.from);
  s.wait(liftToTake).remove(m.captured[0]);
  s.wait(takeToLand).put(m.to, piece);
  return s.wait(500).press(start.turn).wait(1500).tick();
}

/**
 * `m` played; its captured pieces swept off in `real` order (the hands' order), and reported in
 * `reported` order `spacing` ms apart (a scan's updates back to back, or each in a scan of its own).
 */
function swept(start: Position, m: Move, reported: readonly number[], spacing: number, side: Side): Script {
  const s = new Script(start);
  const piece = s.lift(m.from);
  s.wait(400).put(m.to, piece);
  s.wait(500);
  for (const [i, sq] of reported.entries()) s.wait(i === 0 ? 0 : spacing).remove(sq);
  return s.wait(600).press(side).wait(1500).tick();
}

/**
 * A board speaking `protocol`, standing on `start`, sends these events: what its decoder makes of
 * the bytes (an HID board's first report is its whole board: the start).
 */
function through(protocol: ProtocolName, start: Position, events: readonly BoardEvent[]): BoardEvent[] {
  const enc = createBoardEncoder(protocol);
  const dec = createDecoder(protocol);
  const first: BoardEvent = { t: 0, type: 'snapshot', board: start.toBoardString() };
  return [first, ...events].flatMap((e) =>
    // Ticks are the daemon's own, not the board's: they pass beside the link.
    e.type === 'tick' ? [e] : dec.push(enc.encode(e), e.t),
  );
}

describe('4.4 / 5.4.10: one captured piece taken off before the capturing piece lands', () => {
  it.each([
    ['a white man', 'W:W32:B28', '32x23'],
    ['a black man', 'B:W28:B23', '23x32'],
    ['a white king', 'W:WK46:B37', '46x23'],
    ['a black king', 'B:W14:BK5', '5x37'],
  ])('%s: the move, no alert', (_, text, move) => {
    const start = fen(text);
    movesOnly(takenBeforeLanding(start, move), start, [move]);
    // Taken off in the same movement as the landing, 5 ms apart: the same.
    movesOnly(takenBeforeLanding(start, move, 600, 5), start, [move]);
  });

  it.each(['line', 'dgt', 'hid'] as const)('through the %s protocol: the move, no alert', (protocol) => {
    for (const [text, move] of [
      ['W:W32:B28', '32x23'],
      ['B:W14:BK5', '5x37'],
    ]) {
      const start = fen(text);
      const events = through(protocol, start, takenBeforeLanding(start, move).events);
      expect(events.filter((e) => e.type === 'lift').length).toBeGreaterThanOrEqual(2);
      const r = run(events, { start });
      expect(r.moves).toEqual([move]);
      expect(r.alerts).toEqual([]);
    }
  });

  it('5.4.10 still: a multi-capture piece taken off before the capturing piece reached its square', () => {
    const start = fen('W:W32,49:B19,28,43');
    const m = sequence(start, '32x14');
    const s = new Script(start);
    const piece = s.lift(32);
    s.wait(300).put(23, piece).wait(300).remove(m.captured[0]);
    s.wait(300).lift(23);
    s.wait(300).put(14, piece).wait(400).remove(m.captured[1]);
    s.wait(500).press('white').wait(1500).tick();
    for (const scanMs of [undefined, 250]) {
      const r = run(s.events, { start, scanMs });
      expect(r.moves).toEqual(['32x14']);
      expect(rulesOf(r)).toEqual(['5.4.10@1:white']);
    }
  });

  it('no 5.4.10 where the board observed the removal together with the landing (one scan)', () => {
    const start = fen('W:W32,49:B19,28,43');
    const s = new Script(start);
    const piece = s.lift(32);
    s.wait(300).put(23, piece).wait(150).lift(23);
    // One scan's updates: 19 and 28 off, the piece on 14 — reported in square order.
    s.wait(300).remove(19).wait(4).put(14, piece).wait(4).remove(28);
    s.wait(500).press('white').wait(1500).tick();
    movesOnly(s, start, ['32x14'], { scanMs: 250 });
  });
});

/** Captures of 3–6 pieces whose pieces, in square order rising and falling, are in no legal order. */
const SWEEPS = [
  { text: 'W:W49:B6,10,13,18,33,34,36,37,43', move: '49x40' },
  { text: 'W:WK15:B8,11,13,16,21,24,28,41', move: '15x6' },
  { text: 'W:W27:B4,8,13,19,23,30,32,33,44', move: '27x9' },
  { text: 'W:WK34:B7,8,9,29,36,39,41', move: '34x46' },
  { text: 'W:W33:B3,16,28,29,30,39,40,41,43', move: '33x22' },
  { text: 'W:W10:B6,12,13,14,22,31,32,42,45', move: '10x26' },
  { text: 'W:WK23:B14,15,17,18,28,39,40,42,44,45', move: '23x11' },
];

describe('4.11 over what the board observed', () => {
  for (const { text, move } of SWEEPS) {
    const start = fen(text);
    const m = sequence(start, move);
    for (const direction of ['rising', 'falling'] as const) {
      const reported = [...m.captured].sort((a, b) => (direction === 'rising' ? a - b : b - a));
      const label = `${move} (${m.captured.length} pieces, taken ${m.captured.join(',')}), reported ${direction}`;

      it(`a legal sweep ${label} within one scan: the move, no 4.11`, () => {
        // The order the board reports is in no legal order: the test would mean nothing otherwise.
        expect(reported.join()).not.toBe(m.captured.join());
        expect(reported.join()).not.toBe([...m.captured].reverse().join());
        const s = swept(start, m, reported, 4, 'white');
        // A board that says it scans, and one that says nothing (back to back is one observation).
        movesOnly(s, start, [move], { scanMs: 250 });
        movesOnly(s, start, [move]);
      });

      it(`the same order ${label} across scans, 400 ms apart: 4.11`, () => {
        const r = run(swept(start, m, reported, 400, 'white').events, { start, scanMs: 250 });
        expect(r.moves).toEqual([move]);
        expect(rulesOf(r)).toEqual(['4.11@1:white']);
      });
    }
  }

  it('a 4.11 order split across two scans: the order between the scans is still proof', () => {
    // 32x3 takes 28, 19, 9: 19 alone in a first scan, then 28 and 9 together — 19 before 28 and 9
    // is neither the capture order nor its reverse, whatever the order inside the second scan.
    const start = fen('W:W32:B9,19,28');
    const m = sequence(start, '32x3');
    const s = new Script(start);
    const piece = s.lift(32);
    s.wait(400)
      .put(3, piece === 'w' ? 'W' : piece)
      .wait(500);
    s.remove(19).wait(300).remove(9).wait(4).remove(28);
    s.wait(600).press('white').wait(1500).tick();
    const r = run(s.events, { start, scanMs: 250 });
    expect(r.moves).toEqual(['32x3']);
    expect(rulesOf(r)).toEqual(['4.11@1:white']);
    expect(m.captured).toEqual([28, 19, 9]);
  });

  it('a board whose hello says it scans is read so without being told', () => {
    const start = fen(SWEEPS[0].text);
    const m = sequence(start, SWEEPS[0].move);
    const reported = [...m.captured].sort((a, b) => a - b);
    // Reported a scan's worth apart (100 ms): back-to-back reading alone would call it 4.11.
    const s = swept(start, m, reported, 100, 'white');
    expect(rulesOf(run(s.events, { start }))).toEqual(['4.11@1:white']);
    const r = run([scanningHello(), ...s.events], { start });
    expect(r.moves).toEqual([SWEEPS[0].move]);
    expect(r.alerts).toEqual([]);
  });
});
