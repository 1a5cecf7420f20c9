// The tracker after a gap of lost events: one line → recorded, each move `recovered`; several lines
// (transposed plies) → one `gap` alert with the candidates, nothing recorded until the arbiter
// answers, play tracked meanwhile from the board; the answer puts the line in before what followed.
import { describe, expect, it } from 'vitest';
import { GameRecord } from '../../../src/game/index.ts';
import { gameToPdn, PROVISIONAL } from '../../../src/game/pdn.ts';
import { legalMoves, opposite, play, resolveMove } from '../../../src/engine/index.ts';
import type { ArbiterDecision, TrackerOutput } from '../../../src/tracker/types.ts';
import { simulateGame } from '../../../simulator/game.ts';
import { outageOverPlies } from '../../../simulator/outage.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { sensedText } from '../../../src/tracker/sensed-codes.ts';
import { lineNotation } from '../../../src/tracker/gap/answer.ts';
import { searchGap } from '../../../src/tracker/gap/search.ts';
import { chooseMove } from '../../../simulator/selfplay.ts';
import { createRng } from '../../../simulator/prng.ts';
import type { Move } from '../../../src/engine/index.ts';
import { gapOf, lineKey, reconnected, sensedBoard } from './fixtures/gap-lines.ts';
import { Position, playText, run, Script } from './fixtures/hands.ts';
import { verdictOf } from './fixtures/truth.ts';

const played = (pos: Position, ...line: string[]): Position => line.reduce(playText, pos);

/** The tracker's outputs through a game record, as the daemon serves them: the recorded moves. */
function served(
  outputs: readonly TrackerOutput[],
  decisions: Array<[ArbiterDecision, TrackerOutput[]]> = [],
) {
  const record = new GameRecord({ info: { board: 1, round: 1, variant: 'international' } });
  for (const o of outputs) record.apply(o);
  for (const [d, out] of decisions) {
    record.decide(d, 0);
    for (const o of out) record.apply(o);
  }
  return record.snapshot();
}

describe('gap: one line leads to the board', () => {
  it('a dump 8 plies on (a unique line) records all of them, each marked recovered, no alert', () => {
    for (const seed of [4, 8, 10]) {
      const gap = gapOf(seed, 8, false)!;
      const s = reconnected(gap).wait(2000).tick();
      const r = run(s.events, { start: gap.from, variant: gap.from.variant });
      const moves = r.outputs.filter((o) => o.type === 'move');
      expect(moves.map((o) => `${o.move.from}-${o.move.to}`).join(' '), `seed ${seed}`).toBe(
        lineKey(gap.line),
      );
      expect(moves.every((o) => o.recovered === true)).toBe(true);
      expect(r.alerts).toEqual([]);
      expect(r.tracker.state.position.equals(gap.to)).toBe(true);
    }
  });

  it('a simulated game whose board drops off for 4 plies and comes back with a dump: the played game', () => {
    const game = simulateGame({ seed: 5, noise: 'realistic', maxPlies: 30 });
    const events = outageOverPlies(game, 10, 4)!;
    const tracker = createTracker({ variant: game.variant });
    const outputs = events.flatMap((e) => tracker.push(e));
    outputs.push(...tracker.flush(events.at(-1)!.t + 5000));
    const verdict = verdictOf(outputs);
    const truth = game.moves.map((m) => m.pdn);
    // A transposition would be a gap alert: this game's 4 plies have one line.
    expect(verdict.alerts).toEqual([]);
    expect(verdict.moves).toEqual(truth);
    const recovered = outputs.flatMap((o) => (o.type === 'move' && o.recovered ? [o.ply] : []));
    expect(recovered).toEqual([11, 12, 13, 14]);
  });
});

describe('gap: transposed plies', () => {
  const start = played(Position.initial(), '32-28');
  const lines = [
    ['18-22', '37-32', '20-24'],
    ['20-24', '37-32', '18-22'],
  ];
  /** The dump with no hand seen before the gap, then White plays 31-27 by hand (held back). */
  function transposed() {
    const s = new Script(start);
    s.wait(1000)
      .hello()
      .snapshot(played(start, ...lines[0]).toBoardString());
    s.wait(1000).tick();
    s.carry(31, 27).wait(400).press('white').wait(2000).tick();
    return run(s.events, { start });
  }

  it('one gap alert listing both lines; the first recorded at once, provisional, and the move played since live', () => {
    const r = transposed();
    expect(r.alerts.map((a) => [a.rule, a.ply, a.side])).toEqual([['gap', 1, 'black']]);
    expect([...r.alerts[0].candidates!].sort()).toEqual(lines);
    expect(r.alerts[0].boardShown).toBe(played(start, ...lines[0]).toBoardString());
    // The broadcast does not wait for the arbiter: the first line, then White's 31-27 as played.
    const first = r.alerts[0].candidates![0];
    expect(r.moves).toEqual([...first, '31-27']);
    const recorded = r.outputs.flatMap((o) => (o.type === 'move' ? [[o.provisional, o.recovered]] : []));
    expect(recorded).toEqual([
      [true, true],
      [true, true],
      [true, true],
      [undefined, undefined],
    ]);
    const snap = served(r.outputs, []);
    expect(snap.moves.map((m) => m.provisional)).toEqual([true, true, true, undefined]);
    // Spectators read it in the PDN: a comment after each provisional move.
    expect(gameToPdn(snap).split(PROVISIONAL).length - 1).toBe(3);
    expect(r.tracker.state.moves.length).toBe(4);
    expect(r.tracker.state.openAlerts.map((a) => a.rule)).toEqual(['gap']);
  });

  it('stands: the provisional line confirmed, the move since kept; the PDN marks it no more', () => {
    const r = transposed();
    const alert = r.alerts[0];
    const decision: ArbiterDecision = { alertId: alert.id, kind: 'stands' };
    const out = r.tracker.decide(decision, 20_000);
    const snap = served(r.outputs, [[decision, out]]);
    expect(snap.moves.map((m) => m.pdn)).toEqual([...alert.candidates![0], '31-27']);
    expect(snap.moves.map((m) => m.provisional)).toEqual([undefined, undefined, undefined, undefined]);
    expect(snap.moves.map((m) => m.recovered)).toEqual([true, true, true, undefined]);
    expect(gameToPdn(snap)).not.toContain(PROVISIONAL);
    expect(r.tracker.state.openAlerts).toEqual([]);
  });

  for (const chosen of [0, 1]) {
    it(`decide line ${chosen}: the record gets that line (recovered), then 31-27`, () => {
      const r = transposed();
      const alert = r.alerts[0];
      const decision: ArbiterDecision = { alertId: alert.id, kind: 'line', line: chosen };
      const out = r.tracker.decide(decision, 20_000);
      const line = alert.candidates![chosen];
      expect(out.flatMap((o) => (o.type === 'move' ? [o.pdn] : []))).toEqual([...line, '31-27']);
      expect(out.filter((o) => o.type === 'move').map((o) => o.type === 'move' && o.recovered)).toEqual([
        true,
        true,
        true,
        undefined,
      ]);
      const snap = served(r.outputs, [[decision, out]]);
      expect(snap.moves.map((m) => m.pdn)).toEqual([...line, '31-27']);
      expect(snap.moves.map((m) => m.ply)).toEqual([1, 2, 3, 4]);
      expect(snap.moves.map((m) => m.recovered)).toEqual([true, true, true, undefined]);
      // The line replaced (or confirmed) from the gap's ply: nothing provisional is left.
      expect(snap.moves.map((m) => m.provisional)).toEqual([undefined, undefined, undefined, undefined]);
      expect(gameToPdn(snap)).not.toContain(PROVISIONAL);
      expect(r.tracker.state.openAlerts).toEqual([]);
    });
  }

  it('a board of occupancy alone: a line chosen that ends elsewhere than the one tracked goes back to the gap', () => {
    const start = Position.initial();
    const board = played(start, '31-27', '17-21', '27-22');
    const s = new Script(start);
    s.wait(1000)
      .hello()
      .snapshot(sensedText(sensedBoard(board, true)));
    s.wait(1000).tick();
    // Black's capture played by hand since, from the position tracked (White's man on 21).
    const tracked = played(start, '31-26', '17-22', '26-21');
    const capture = resolveMove(tracked, '16x27');
    if (!capture.ok) throw new Error('16x27');
    s.play(capture.value, 'black');
    // A small budget: the board left unexplained below is searched in vain, quickly.
    const r = run(s.events, { start, occupancyOnly: true, gapBudget: { step: 500, total: 20_000 } });
    // White's man on 21 and Black's on 22, or the other way round: the board cannot tell.
    const alert = r.alerts[0];
    expect(alert.candidates).toEqual([
      ['31-26', '17-22', '26-21'],
      ['31-27', '17-21', '27-22'],
      ['31-27', '17-22', '27-21'],
    ]);
    expect(r.tracker.state.moves.length).toBe(4);
    const out = r.tracker.decide({ alertId: alert.id, kind: 'line', line: 1 }, 20_000);
    let t = 20_000;
    for (let i = 0; i < 100; i++) out.push(...r.tracker.push({ t: (t += 100), type: 'tick' }));
    // The record gets the line chosen; 16x27 is no move from there (Black's man on 21 is White's
    // there): the board since is unexplained, and the arbiter is told.
    const moves = out.flatMap((o) => (o.type === 'move' ? [o] : []));
    expect(moves.map((o) => [o.ply, o.pdn, o.recovered])).toEqual([
      [1, '31-27', true],
      [2, '17-21', true],
      [3, '27-22', true],
    ]);
    expect(r.tracker.state.moves.length).toBe(3);
    expect(r.tracker.state.position.equals(board)).toBe(true);
    expect(r.tracker.state.openAlerts.map((a) => a.rule)).toEqual(['unknown-position']);
  });

  /**
   * The dump, then White lifts 31 (and puts it on 27 `put` ms later, if given) while the lines are
   * still searched (five nodes an input): the alert comes after the lift.
   */
  function liftedWhileSearched(put?: number) {
    const s = new Script(start);
    s.wait(1000)
      .hello()
      .snapshot(played(start, ...lines[0]).toBoardString());
    for (let i = 0; i < 25; i++) s.wait(20).tick();
    const man = s.lift(31);
    if (put !== undefined) s.wait(put).put(27, man);
    for (let i = 0; i < 100; i++) s.wait(20).tick();
    const r = run(s.events, { start, gapBudget: { step: 5, total: 20_000 } });
    expect(r.alerts.map((a) => a.rule)).toEqual(['gap']);
    expect(r.alerts[0].t).toBeGreaterThan(s.events.find((e) => e.type === 'lift')!.t + (put ?? 0));
    return r;
  }

  for (const put of [undefined, 100]) {
    it(`${put ? 'a move played' : 'a piece lifted'} while the lines are searched: the alert shows the board searched, and each line or the score sheet answers it`, () => {
      const alert = liftedWhileSearched(put).alerts[0];
      expect(alert.boardShown).toBe(played(start, ...lines[0]).toBoardString());
      for (const line of [0, 1]) {
        const out = liftedWhileSearched(put).tracker.decide(
          { alertId: alert.id, kind: 'line', line },
          30_000,
        );
        expect(out.flatMap((o) => (o.type === 'move' ? [o.pdn] : []))).toEqual([
          ...alert.candidates![line],
          ...(put ? ['31-27'] : []),
        ]);
      }
      const sheet = [...alert.candidates![1], '31-27', '22x31'].join(' ');
      const r = liftedWhileSearched(put);
      const out = r.tracker.decide({ alertId: alert.id, kind: 'moves', pdn: sheet }, 30_000);
      expect(out.flatMap((o) => (o.type === 'move' ? [o.pdn] : []))).toEqual([
        ...alert.candidates![1],
        ...(put ? ['31-27'] : []),
      ]);
      expect(r.tracker.state.openAlerts).toEqual([]);
    });
  }

  it('a line whose last move is under way (a piece in the hand in the dump): each line or the score sheet answers it', () => {
    // The dump has White's man on 31 in the hand; it goes down on 27 a little later.
    const board = [...played(start, ...lines[0]).toBoardString()];
    board[30] = '.';
    const s = new Script(start);
    s.wait(1000).hello().snapshot(board.join(''));
    s.wait(2000).tick();
    s.put(27, 'w').wait(400).press('white').wait(2000).tick();
    const first = run(s.events.slice(0, 3), { start });
    const alert = first.alerts[0];
    expect(alert.rule).toBe('gap');
    expect(alert.boardShown).toBe(board.join(''));
    for (const line of [0, 1]) {
      const r = run(s.events.slice(0, 3), { start });
      const out = r.tracker.decide({ alertId: alert.id, kind: 'line', line }, 3_500);
      expect(out.flatMap((o) => (o.type === 'move' ? [o.pdn] : []))).toEqual(alert.candidates![line]);
    }
    const r = run(s.events.slice(0, 3), { start });
    const sheet = [...alert.candidates![1], '31-27', '22x31'].join(' ');
    const out = r.tracker.decide({ alertId: alert.id, kind: 'moves', pdn: sheet }, 3_500);
    for (const e of s.events.slice(3)) out.push(...r.tracker.push(e));
    expect(out.flatMap((o) => (o.type === 'move' ? [o.pdn] : []))).toEqual([
      ...alert.candidates![1],
      '31-27',
    ]);
    expect(r.tracker.state.openAlerts).toEqual([]);
  });

  it('decide moves from the score sheet: recorded when they reach the board; a line that does not is ignored', () => {
    const r = transposed();
    const alert = r.alerts[0];
    expect(r.tracker.decide({ alertId: alert.id, kind: 'moves', pdn: '18-22 37-32 19-23' }, 20_000)).toEqual(
      [],
    );
    expect(r.tracker.state.openAlerts.map((a) => a.rule)).toEqual(['gap']);
    const out = r.tracker.decide(
      { alertId: alert.id, kind: 'moves', pdn: '1... 20-24 2. 37-32 18-22' },
      21_000,
    );
    expect(out.flatMap((o) => (o.type === 'move' ? [o.pdn] : []))).toEqual([...lines[1], '31-27']);
  });

  it('the lift seen before the gap tells the order: recorded at once, no alert', () => {
    const s = new Script(start);
    s.wait(1500).lift(20);
    s.wait(500).snapshot(played(start, ...lines[1]).toBoardString());
    s.wait(2000).tick();
    const r = run(s.events, { start });
    expect(r.moves).toEqual(lines[1]);
    expect(r.alerts).toEqual([]);
  });
});

describe('gap: a line found before the budget ran out', () => {
  it('other lines not ruled out: one gap alert with that line as its one candidate, recorded provisional', () => {
    // Seed 7, 8 plies: with a total budget of 4000 nodes the search finds the played line but spends
    // it before it can rule out every other line of 8 plies (gap-search's `complete` is false).
    const gap = gapOf(7, 8, false)!;
    const found = searchGap(gap.from, sensedBoard(gap.to, false), { nodes: 4000 });
    expect(found.kind === 'found' && !found.complete).toBe(true);
    const s = reconnected(gap).wait(2000).tick();
    const gapBudget = { step: 4000, total: 4000 };
    const r = run(s.events, { start: gap.from, variant: gap.from.variant, gapBudget });
    expect(r.alerts.map((a) => a.rule)).toEqual(['gap']);
    expect(r.alerts[0].candidates).toEqual([lineNotation(gap.from, gap.line)]);
    expect(r.moves).toEqual(lineNotation(gap.from, gap.line));
    expect(r.outputs.every((o) => o.type !== 'move' || o.provisional === true)).toBe(true);
    expect(r.tracker.state.position.equals(gap.to)).toBe(true);
  });
});

describe('gap: no line within the bound', () => {
  it('a board no line reaches stays unknown-position (never a gap alert)', () => {
    const start = played(Position.initial(), '32-28', '19-23');
    const s = new Script(start);
    const board = [...start.toBoardString()];
    board[0] = 'w';
    board[30] = '.';
    s.wait(1000).hello().snapshot(board.join('')).wait(5000).tick();
    const r = run(s.events, { start });
    expect(r.alerts.map((a) => a.rule)).toEqual(['unknown-position']);
    expect(resolveMove(start, '28x19').ok).toBe(true);
  });
});

/** `plies` self-played moves from `from`, hands and clock, a ply a second from time `t`. */
function playOn(from: Position, plies: number, seed: number, t?: number) {
  const rng = createRng(seed);
  const line: Move[] = [];
  let end = from;
  const script = new Script(from);
  if (t !== undefined) script.t = t;
  for (let ply = 1; ply <= plies; ply++) {
    const m = chooseMove(end, ply, rng)!;
    script.wait(1000).play(m, end.turn);
    line.push(m);
    end = play(end, m);
  }
  return { script, line, end };
}

describe('unknown-position after lost events: the moves from the score sheet', () => {
  // Seed 2, 20 plies: a budget of 2,000 nodes finds no line (no search of this tracker settles it).
  const gap = gapOf(2, 20, false)!;
  const lost = () => {
    // A step a tick, past the stall time.
    const s = reconnected(gap, 60);
    return run(s.events, {
      start: gap.from,
      variant: gap.from.variant,
      gapBudget: { step: 500, total: 2000 },
    });
  };

  it('the alert shows the board; the 20 moves that reach it are recorded, each recovered, and the alert is closed', () => {
    const r = lost();
    expect(r.alerts.map((a) => a.rule)).toEqual(['unknown-position']);
    const alert = r.alerts[0];
    expect(alert.boardShown).toBe(gap.to.toBoardString());
    const pdn = lineNotation(gap.from, gap.line).join(' ');
    const out = r.tracker.decide({ alertId: alert.id, kind: 'moves', pdn }, 30_000);
    const moves = out.flatMap((o) => (o.type === 'move' ? [o] : []));
    expect(lineKey(moves.map((o) => o.move))).toBe(lineKey(gap.line));
    expect(moves.every((o) => o.recovered)).toBe(true);
    expect(r.tracker.state.openAlerts).toEqual([]);
    expect(r.tracker.state.position.equals(gap.to)).toBe(true);
  });

  // Seed 2's board after 20 plies has a capture to make: the capturing piece in the hand, or put
  // down with the pieces it takes still on.
  it.each([
    ['in the hand', false],
    ['landed, its captures still on', true],
  ])(
    'a dump with the next move under way (%s): the score sheet reaches it, and the move is followed',
    (_, landed) => {
      const next = legalMoves(gap.to)[0];
      expect(next.captured.length).toBeGreaterThan(0);
      const shown = [...gap.to.toBoardString()];
      const piece = shown[next.from - 1] as 'w' | 'b';
      shown[next.from - 1] = '.';
      if (landed) shown[next.to - 1] = piece;
      const s = new Script(gap.from);
      s.wait(1000).hello().snapshot(shown.join(''));
      for (let i = 0; i < 60; i++) s.wait(100).tick();
      const r = run(s.events, {
        start: gap.from,
        variant: gap.from.variant,
        gapBudget: { step: 500, total: 2000 },
      });
      expect(r.alerts.map((a) => a.rule)).toEqual(['unknown-position']);
      const alert = r.alerts[0];
      expect(alert.boardShown).toBe(shown.join(''));
      // Written on past it: the moves up to the board with `next` under way are the gap's.
      const pdn = lineNotation(gap.from, [...gap.line, next]).join(' ');
      const out = r.tracker.decide({ alertId: alert.id, kind: 'moves', pdn }, 30_000);
      const from = s.events.length;
      s.t = 31_000;
      if (!landed) s.put(next.to, piece);
      for (const c of next.captured) s.wait(300).remove(c);
      s.wait(400).press(gap.to.turn).wait(2000).tick();
      for (const e of s.events.slice(from)) out.push(...r.tracker.push(e));
      const moves = out.flatMap((o) => (o.type === 'move' ? [o] : []));
      expect(lineKey(moves.map((o) => o.move))).toBe(lineKey([...gap.line, next]));
      expect(moves.map((o) => o.recovered === true)).toEqual([...gap.line.map(() => true), false]);
      expect(r.tracker.state.openAlerts).toEqual([]);
    },
  );

  /** `plies` moves played on from the board shown, hands and clock seen, after `t0`. */
  const playedOn = (r: ReturnType<typeof lost>, plies: number, seed = 3) => {
    const { script: s, line, end } = playOn(gap.to, plies, seed);
    const t0 = r.outputs.at(-1)?.t ?? 0;
    const meanwhile = s.events.flatMap((e) => r.tracker.push({ ...e, t: e.t + t0 + 10_000 }));
    return { line, end, meanwhile, t: (s.events.at(-1)?.t ?? 0) + t0 + 30_000 };
  };

  /** The score sheet's answer at `t`, then a tick every 100 ms for 6 s. */
  const answer = (r: ReturnType<typeof lost>, t: number) => {
    const pdn = lineNotation(gap.from, gap.line).join(' ');
    const out = r.tracker.decide({ alertId: r.alerts[0].id, kind: 'moves', pdn }, t);
    for (let i = 0; i < 60; i++) out.push(...r.tracker.push({ t: (t += 100), type: 'tick' }));
    return out.flatMap((o) => (o.type === 'move' ? [o] : []));
  };

  it('played on while the arbiter wrote: the score sheet is recorded, then the plies followed since', () => {
    const r = lost();
    const on = playedOn(r, 2);
    expect(on.meanwhile.filter((o) => o.type === 'move' || o.type === 'alert')).toEqual([]);
    const moves = answer(r, on.t);
    expect(lineKey(moves.map((o) => o.move))).toBe(lineKey([...gap.line, ...on.line]));
    // The gap's moves were searched for; the two since were seen.
    expect(moves.map((o) => o.recovered === true)).toEqual([...gap.line.map(() => true), false, false]);
    expect(r.tracker.state.openAlerts).toEqual([]);
    expect(r.tracker.state.position.equals(on.end)).toBe(true);
  });

  it('30 plies played on before the answer (past any search): every one recorded after the score sheet', () => {
    const r = lost();
    expect(r.tracker.following).toBe(0);
    const on = playedOn(r, 30);
    expect(on.meanwhile.filter((o) => o.type === 'move' || o.type === 'alert')).toEqual([]);
    expect(r.tracker.following).toBe(30);
    const moves = answer(r, on.t);
    expect(r.tracker.following).toBeUndefined();
    expect(moves.length).toBe(50);
    expect(lineKey(moves.map((o) => o.move))).toBe(lineKey([...gap.line, ...on.line]));
    expect(moves.slice(20).some((o) => o.recovered)).toBe(false);
    expect(r.tracker.state.openAlerts).toEqual([]);
    expect(r.tracker.state.position.equals(on.end)).toBe(true);
  });

  it('the stall time passing at the first lift of the play since (no ticks): that lift is followed too', () => {
    // The search ends within these steps, then quiet: the stall time is found passed at the next lift.
    const s = reconnected(gap, 20);
    const { script: on, line } = playOn(gap.to, 30, 3, s.t + 10_000);
    const r = run(s.events, {
      start: gap.from,
      variant: gap.from.variant,
      gapBudget: { step: 500, total: 2000 },
    });
    expect(r.alerts).toEqual([]);
    // The first lift raises the alert (the stall time, passed), and is sensed after it.
    const first = r.tracker.push(on.events[0]);
    expect(first.flatMap((o) => (o.type === 'alert' ? [o.alert.rule] : []))).toEqual(['unknown-position']);
    r.alerts.push(...first.flatMap((o) => (o.type === 'alert' ? [o.alert] : [])));
    for (const e of on.events.slice(1)) r.tracker.push(e);
    expect(r.tracker.following).toBe(30);
    const moves = answer(r, on.t + 30_000);
    expect(lineKey(moves.map((o) => o.move))).toBe(lineKey([...gap.line, ...line]));
  });

  it('a score sheet written on past the board shown: the moves up to it are the gap, the rest as followed', () => {
    const r = lost();
    const on = playedOn(r, 6);
    const pdn = lineNotation(gap.from, [...gap.line, ...on.line]).join(' ');
    let t = on.t;
    const out = r.tracker.decide({ alertId: r.alerts[0].id, kind: 'moves', pdn }, t);
    for (let i = 0; i < 60; i++) out.push(...r.tracker.push({ t: (t += 100), type: 'tick' }));
    const moves = out.flatMap((o) => (o.type === 'move' ? [o] : []));
    expect(lineKey(moves.map((o) => o.move))).toBe(lineKey([...gap.line, ...on.line]));
    expect(moves.map((o) => o.recovered === true)).toEqual([
      ...gap.line.map(() => true),
      ...on.line.map(() => false),
    ]);
    expect(r.tracker.state.openAlerts).toEqual([]);
  });

  it('the side that made the first move followed must be the one the score sheet leaves to move', () => {
    const r = lost();
    const side = gap.to.turn;
    // The other side moves first on the board shown: followed as that side's, so it does not
    // continue the score sheet; the board is read from the score sheet's end instead.
    const other = Position.fromBoard(gap.to.variant, opposite(side), gap.to.board);
    const first = legalMoves(other)[0];
    const s = new Script(other);
    s.wait(1000).play(first, opposite(side));
    const t0 = r.outputs.at(-1)?.t ?? 0;
    for (const e of s.events) r.tracker.push({ ...e, t: e.t + t0 + 10_000 });
    const moves = answer(r, (s.events.at(-1)?.t ?? 0) + t0 + 30_000);
    // Not the follower's clean move: the board read after the score sheet, the same side twice.
    expect(moves.slice(20).map((o) => [o.pdn, o.recovered === true, o.irregular])).toEqual([
      [lineNotation(other, [first])[0], false, ['5.4.1']],
    ]);
  });

  it('an irregularity on the board shown: followed up to it, then read from the board after the answer', () => {
    const r = lost();
    const side = gap.to.turn;
    // The side to move plays twice (5.4.1 for the follower), then the other side replies.
    const first = legalMoves(gap.to)[0];
    const after = play(gap.to, first);
    const again = legalMoves(Position.fromBoard(after.variant, side, after.board))[0];
    const twice = play(Position.fromBoard(after.variant, side, after.board), again);
    const s = new Script(gap.to);
    s.wait(1000).play(first, side);
    s.wait(1000).play(again, side);
    const t0 = r.outputs.at(-1)?.t ?? 0;
    const meanwhile = s.events.flatMap((e) => r.tracker.push({ ...e, t: e.t + t0 + 10_000 }));
    expect(meanwhile.filter((o) => o.type === 'move' || o.type === 'alert')).toEqual([]);
    const moves = answer(r, (s.events.at(-1)?.t ?? 0) + t0 + 30_000);
    // The score sheet, the first move as it was seen, then the second read from the board after
    // them: recorded as played and marked (5.7), its alert raised.
    expect(moves.slice(0, 20).every((o) => o.recovered)).toBe(true);
    expect(moves.slice(20).map((o) => [o.pdn, o.recovered === true, o.irregular])).toEqual([
      [lineNotation(gap.to, [first])[0], false, undefined],
      [lineNotation(Position.fromBoard(after.variant, side, after.board), [again])[0], false, ['5.4.1']],
    ]);
    expect(r.tracker.state.openAlerts.map((a) => a.rule)).toEqual(['5.4.1']);
    expect(r.tracker.state.position.toBoardString()).toBe(twice.toBoardString());
  });

  it("a board that senses occupancy only: its events since are read from the score sheet's end", () => {
    const occ = gapOf(2, 20, true)!;
    const s = new Script(occ.from);
    s.wait(1000)
      .hello()
      .snapshot(sensedText(sensedBoard(occ.to, true)));
    for (let i = 0; i < 60; i++) s.wait(100).tick();
    // 30 plies on from the board shown, after the alert.
    const { script: on, line, end: pos } = playOn(occ.to, 30, 5, s.t);
    const r = run([...s.events, ...on.events], {
      start: occ.from,
      variant: occ.from.variant,
      occupancyOnly: true,
      gapBudget: { step: 500, total: 2000 },
    });
    expect(r.alerts.map((a) => a.rule)).toEqual(['unknown-position']);
    expect(r.outputs.filter((o) => o.type === 'move')).toEqual([]);
    // Not followed live: the colours of what it shows are not known.
    expect(r.tracker.following).toBeUndefined();
    let t = on.t + 30_000;
    const pdn = lineNotation(occ.from, occ.line).join(' ');
    const out = r.tracker.decide({ alertId: r.alerts[0].id, kind: 'moves', pdn }, t);
    for (let i = 0; i < 60; i++) out.push(...r.tracker.push({ t: (t += 100), type: 'tick' }));
    const moves = out.flatMap((o) => (o.type === 'move' ? [o] : []));
    expect(lineKey(moves.map((o) => o.move))).toBe(lineKey([...occ.line, ...line]));
    expect(moves.map((o) => o.recovered === true)).toEqual([
      ...occ.line.map(() => true),
      ...line.map(() => false),
    ]);
    expect(r.tracker.state.position.equals(pos)).toBe(true);
  });

  it('moves that do not reach the board, or a candidate line, are ignored: the alert stays open', () => {
    const r = lost();
    const alert = r.alerts[0];
    const short = lineNotation(gap.from, gap.line.slice(0, 19)).join(' ');
    expect(r.tracker.decide({ alertId: alert.id, kind: 'moves', pdn: short }, 30_000)).toEqual([]);
    expect(r.tracker.decide({ alertId: alert.id, kind: 'line', line: 0 }, 30_000)).toEqual([]);
    expect(r.tracker.state.openAlerts.map((a) => a.id)).toEqual([alert.id]);
    expect(r.tracker.state.moves).toEqual([]);
  });
});
