// Ordinary hand behaviour (docs/irregularities.md, "never an alert"): every test plays a move the
// way real hands and sensors do and expects the move, and nothing else.
import { describe, expect, it } from 'vitest';
import { createTracker } from '../../../src/tracker/index.ts';
import {
  fen,
  movesOnly,
  playText,
  Position,
  run,
  Script,
  sequence,
  touchedThenMoved,
} from './fixtures/hands.ts';

/** Black's king 16 slid to 7, settled on 11 on the way; the clock pressed `pressAfter` ms after it lands. */
function slideHeldUpOn11(start: Position, pressAfter: number): Script {
  const s = new Script(start);
  const k = s.lift(16);
  s.wait(80).put(11, k).wait(300);
  s.lift(11);
  s.put(7, k).wait(pressAfter).press('black').wait(1000).tick();
  return s;
}

describe('hand behaviour that is never an alert', () => {
  it('3.9 slide: a king slid across the squares it crosses (put/lift trail)', () => {
    const start = fen('W:WK46:B5');
    const s = new Script(start);
    const k = s.lift(46);
    for (const x of [41, 37, 32, 28]) s.wait(60).put(x, k).wait(40).lift(x);
    s.wait(80).put(23, k).wait(500).press('white').wait(1000).tick();
    movesOnly(s, start, ['46-23']);
  });

  // The daemon bench's rare false alert: at 10× speed a 16 ms hold-up of the simulator between the
  // put and the lift of a slide's trail square is 160 ms of board time, and the king settled there.
  it.each([
    [350, 'held up on the way longer than the settle time, then pressed'],
    [60, 'settled on the way and going on before the press, the clock pressed at once'],
  ])('3.9 slide %i ms before the press, %s: one move, no 5.4.1', (pressAfter) => {
    const start = fen('B:W46:BK16');
    const r = movesOnly(slideHeldUpOn11(start, pressAfter), start, ['16-7']);
    expect(r.tracker.state.moves.map((m) => `${m.from}-${m.to}`)).toEqual(['16-7']);
    // Read as 16-11 when it settled there, then as the move it went on to be, at the same ply.
    expect(
      r.outputs.filter((o) => o.type === 'move').map((o) => o.type === 'move' && [o.ply, o.pdn]),
    ).toEqual([
      [1, '16-11'],
      [1, '16-7'],
    ]);
  });

  it('a slide that settled on the way, where the king could then capture: the rest and the press in one burst', () => {
    // After 16-11 alone Black would have 11x22: 11-7 is no legal move of Black's there.
    const start = fen('B:W46,17:BK16');
    const s = slideHeldUpOn11(start, 0);
    s.carry(46, 41).wait(400).press('white').wait(1000).tick();
    movesOnly(s, start, ['16-7', '46-41']);
  });

  it('sensor bounce on another piece is not a touch (5.4.3)', () => {
    const { start, s } = touchedThenMoved(30, 200);
    movesOnly(s, start, ['32-28']);
  });

  it('adjusting the piece that is then moved, and an opponent piece, is not 5.4.3', () => {
    const start = fen('W:W31,32:B1');
    const s = new Script(start).touch(32, 600).wait(300).touch(1, 500).wait(200).carry(32, 28);
    s.wait(300).touch(28, 300).wait(400).press('white').wait(1000).tick();
    movesOnly(s, start, ['32-28']);
  });

  it('new square reported before the old square', () => {
    const start = Position.initial();
    const s = new Script(start).put(28, 'w').wait(40);
    s.lift(32);
    s.wait(500).press('white').wait(1000).tick();
    movesOnly(s, start, ['32-28']);
  });

  it('4.9: each landing square touched, captured pieces removed in reverse order with 1 s pauses', () => {
    const start = fen('W:W32:B9,19,28');
    const s = new Script(start).play(sequence(start, '32x3'), 'white', { order: [9, 19, 28], gap: 1000 });
    const r = movesOnly(s, start, ['32x3']);
    expect(r.tracker.state.position.pieceAt(3)).toBe('W');
  });

  it('4.9 touches tell which path of a circular capture was played', () => {
    const start = fen('W:W32:B17,18,27,28');
    const anticlockwise = sequence(start, '32x32', [28, 18, 17, 27]);
    const s = new Script(start).play(anticlockwise, 'white');
    const r = run(s.events, { start });
    const move = r.outputs.find((o) => o.type === 'move');
    expect(move?.type === 'move' && move.move.path).toEqual([32, 23, 12, 21, 32]);
    expect(move?.type === 'move' && move.move.captured).toEqual([28, 18, 17, 27]);
    expect(r.alerts).toEqual([]);
  });

  it('4.12: the clock pressed right after the last removal settles at once', () => {
    const start = fen('W:W28:B23,5');
    const tracker = createTracker({ variant: 'international', start });
    const s = new Script(start).carry(28, 19).wait(300).remove(23).wait(50).press('white').wait(101).tick();
    const outs = s.events.flatMap((e) => tracker.push(e));
    const move = outs.find((o) => o.type === 'move');
    expect(move).toMatchObject({ type: 'move', pdn: '28x19', t: s.t - 1 });
  });

  it('a promotion shown by putting the man down and then the king', () => {
    const start = fen('W:W7:B45');
    const s = new Script(start).carry(7, 2).wait(600);
    s.lift(2);
    s.wait(300).put(2, 'W').wait(400).press('white').wait(1000).tick();
    const r = movesOnly(s, start, ['7-2']);
    expect(r.tracker.state.position.pieceAt(2)).toBe('W');
  });

  it('occupancy-only boards: colours and kinds follow from the game', () => {
    const start = Position.initial();
    const s = new Script(start, true);
    let pos = start;
    for (const text of ['32-28', '19-23', '28x19', '14x23']) {
      const move = sequence(pos, text);
      s.play(move, pos.turn);
      pos = playText(pos, text);
    }
    const r = movesOnly(s, start, ['32-28', '19-23', '28x19', '14x23'], { occupancyOnly: true });
    expect(r.tracker.state.position.equals(pos)).toBe(true);
  });

  it('a hello from an occupancy-only board makes the tracker read occupancy', () => {
    const start = Position.initial();
    const s = new Script(start, true);
    s.events.push({ t: 900, type: 'hello', serial: '1', protocol: 'line', squares: 50, senses: 'occupancy' });
    s.play(sequence(start, '32-28'), 'white');
    s.play(sequence(playText(start, '32-28'), '19-23'), 'black');
    const r = run(s.events, { start });
    expect(r.moves).toEqual(['32-28', '19-23']);
    expect(r.tracker.state.position.pieceAt(23)).toBe('b');
  });

  it('a board reset to the start position is a new game', () => {
    const start = Position.initial();
    const s = new Script(start).carry(32, 28).wait(400).press('white').wait(1500);
    s.carry(19, 23).wait(400).press('black').wait(1500);
    s.remove(23);
    s.wait(300).remove(28);
    s.wait(300).put(19, 'b').wait(300).put(32, 'w').wait(1000).tick();
    const r = run(s.events, { start });
    expect(r.outputs.some((o) => o.type === 'new-game')).toBe(true);
    expect(r.tracker.state.moves).toEqual([]);
    expect(r.alerts).toEqual([]);
  });

  it('a new game whose last set-up piece and first move reach the tracker in one burst', () => {
    // The start position never settles: the set-up ends and 32-28 is played within the settle time.
    const start = Position.initial();
    const s = new Script(start).carry(32, 28).wait(400).press('white').wait(1500);
    s.carry(19, 23).wait(400).press('black').wait(1500);
    // The set-up: pieces off, then on their start squares.
    for (const sq of [23, 28, 17, 18, 31, 33]) s.wait(300).remove(sq);
    for (const [sq, p] of [
      [17, 'b'],
      [18, 'b'],
      [19, 'b'],
      [31, 'w'],
      [33, 'w'],
      [32, 'w'],
    ] as const)
      s.wait(300).put(sq, p);
    s.wait(60).carry(33, 29, 100).wait(400).press('white').wait(1000).tick();
    const r = run(s.events, { start });
    expect(r.outputs.some((o) => o.type === 'new-game')).toBe(true);
    expect(r.moves).toEqual(['33-29']);
    expect(r.alerts).toEqual([]);
  });

  it('setting up after a game: a man put where the last king could go is no move of that king (5.4.1)', () => {
    // The daemon bench's boards play game after game: the set-up lifts the black king on 7 and puts
    // Black's men on 1, 2, 3 … — the first of them read as the king stepping 7-1 out of turn.
    // The game is over: Black's king took White's last piece.
    const start = fen('W:W:BK7');
    const s = new Script(start);
    s.lift(7);
    for (let sq = 1; sq <= 20; sq++) s.wait(300).put(sq, 'b');
    for (let sq = 31; sq <= 50; sq++) s.wait(300).put(sq, 'w');
    s.wait(1000).tick();
    const r = run(s.events, { start });
    expect(r.alerts).toEqual([]);
    expect(r.outputs.filter((o) => o.type === 'new-game')).toHaveLength(1);
  });

  it('the kings-in-the-centre result gesture is recognised and not recorded as a move', () => {
    const start = fen('W:W40:B10');
    const s = new Script(start).carry(40, 34).wait(400).press('white').wait(1500);
    s.put(23, 'W').wait(300).put(28, 'B').wait(1000).tick().wait(6000).tick();
    const r = run(s.events, { start });
    expect(r.moves).toEqual(['40-34']);
    expect(r.outputs.filter((o) => o.type === 'result-gesture')).toMatchObject([{ result: '1-1' }]);
    expect(r.alerts).toEqual([]);
  });

  it('4.4: a capture landed with its piece still on is not a takeback (occupancy-only)', () => {
    // After 31-27 36-31 27x36 the landed board has the occupancy of the start position.
    const start = fen('B:W36,40:BK31,5');
    const s = new Script(start, true);
    s.carry(31, 27).wait(400).press('black').wait(1500);
    s.carry(36, 31).wait(400).press('white').wait(1500);
    s.carry(27, 36).wait(600).remove(31).wait(400).press('black').wait(1000).tick();
    movesOnly(s, start, ['31-27', '36-31', '27x36'], { occupancyOnly: true });
  });

  it('result gesture with a king already on a centre square: both kings must be put there', () => {
    const start = fen('B:WK28:B10');
    const s = new Script(start).carry(10, 15).wait(400).press('black').wait(1500);
    s.lift(28);
    s.wait(400).put(28, 'B').wait(400).put(23, 'W').wait(1000).tick();
    const r = run(s.events, { start });
    expect(r.moves).toEqual(['10-15']);
    expect(r.outputs.filter((o) => o.type === 'result-gesture')).toMatchObject([{ result: '1-1' }]);
    expect(r.alerts).toEqual([]);
  });

  it('a piece held in the hand for 6 s while thinking is no 5.4.7: that is read at a press', () => {
    const start = Position.initial();
    const s = new Script(start).carry(32, 28, 6000).wait(400).press('white').wait(1000).tick();
    movesOnly(s, start, ['32-28']);
  });

  it('a set-up left half done for 6 s is no unknown-position; completed, it is a new game', () => {
    const start = Position.initial();
    const s = new Script(start).carry(32, 28).wait(400).press('white').wait(1500);
    s.carry(19, 23).wait(400).press('black').wait(1500);
    for (const sq of [23, 28, 17, 18, 31, 33, 34]) s.wait(200).remove(sq);
    s.wait(200).put(19, 'b').wait(6000).tick();
    for (const [sq, p] of [
      [17, 'b'],
      [18, 'b'],
      [31, 'w'],
      [33, 'w'],
      [34, 'w'],
      [32, 'w'],
    ] as const)
      s.wait(300).put(sq, p);
    s.wait(1000).tick();
    const r = run(s.events, { start });
    expect(r.alerts).toEqual([]);
    expect(r.outputs.filter((o) => o.type === 'new-game')).toHaveLength(1);
  });

  it('a piece held in the hand for 2 s is no irregularity yet', () => {
    const start = Position.initial();
    const s = new Script(start).carry(32, 28, 2000).wait(400).press('white').wait(1000).tick();
    movesOnly(s, start, ['32-28']);
  });

  it('is deterministic: the same events give the same outputs', () => {
    const start = fen('W:W32,49:B19,28,43');
    const s = new Script(start).play(sequence(start, '32x14'), 'white', { order: [28] });
    expect(JSON.stringify(run(s.events, { start }).outputs)).toBe(
      JSON.stringify(run(s.events, { start }).outputs),
    );
  });
});
