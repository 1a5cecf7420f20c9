// The round as lidraughts replays it (test/fixtures/lidraughts.ts, written from its source): after
// every irregularity that can stand, after a position the arbiter set, after a reset, a result or a
// name full of brackets, every published game replays move by move from its start or its FEN.
import { describe, expect, it } from 'vitest';
import { colorOf, type Move, parseFen, play, resolveMove, writeFen } from '../../../src/engine/index.ts';
import { GameRecord } from '../../../src/game/index.ts';
import type { GameInfo, GameSnapshot } from '../../../src/game/types.ts';
import type { RuleId, TrackerOutput } from '../../../src/tracker/types.ts';
import { PdnCache, roundFile, type TableResults } from '../../../daemon/views/rounds.ts';
import { type LidraughtsGame, readRound } from '../../fixtures/lidraughts.ts';
import { player } from '../game/fixtures/helpers.ts';
import { Position, playText, run, Script } from '../tracker/fixtures/hands.ts';

const info = (board: number): GameInfo => ({
  board,
  round: 3,
  variant: 'international',
  event: 'Cup',
  white: `White ${board}`,
  black: `Black ${board}`,
});

/** The round's `games.pdn` as lidraughts reads it; every game replays whole (or the test fails). */
function lidraughts(games: GameSnapshot[], results?: TableResults): LidraughtsGame[] {
  const file = roundFile(3, games, 'games.pdn', new PdnCache(), results)!;
  const read = readRound(file.body);
  for (const g of read) {
    expect(g.stoppedAt, `a move lidraughts cannot play in\n${file.body}`).toBeUndefined();
    expect(g.restartedAt).toBeUndefined();
    // No flip: where the position decides, the file says the same.
    if (g.decided) expect(g.result).toBe(g.decided);
  }
  return read;
}

function at(fen: string): Position {
  const r = parseFen(fen);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** A board: its record, the position on it and the tracker's ply count. */
class Board {
  readonly record: GameRecord;
  position: Position;
  ply = 0;
  t = 0;

  constructor(board: number, options: { autoResult?: boolean; startFen?: string } = {}) {
    this.record = new GameRecord({ info: info(board), ...options });
    this.position = at(this.record.snapshot().startFen);
  }

  /** Legal moves, as the tracker reports them. */
  play(...texts: string[]): this {
    for (const text of texts) {
      const m = resolveMove(this.position, text);
      if (!m.ok) throw new Error(`${text}: ${m.error.message}`);
      this.move(m.value, text);
    }
    return this;
  }

  /** A move as the board shows it, legal or not: the side to move after it is the mover's opponent. */
  move(move: Move, text: string, irregular?: RuleId[]): this {
    const after = play(this.position, move);
    const mover = colorOf(move.piece);
    const fen = writeFen(after).replace(/^[WB]/, mover === 'white' ? 'B' : 'W');
    this.position = at(fen);
    this.ply++;
    this.t += 1000;
    this.apply({
      type: 'move',
      t: this.t,
      ply: this.ply,
      move,
      pdn: text,
      fenAfter: fen,
      ...(irregular ? { irregular } : {}),
    });
    return this;
  }

  /** `text` played by `side`, whoever is to move (5.4.1, 5.4.5). */
  playAs(side: 'white' | 'black', text: string, rule: RuleId): this {
    const turned = parseFen(writeFen(this.position).replace(/^[WB]/, side === 'white' ? 'W' : 'B'));
    if (!turned.ok) throw new Error(turned.error.message);
    const m = resolveMove(turned.value, text);
    if (!m.ok) throw new Error(`${text}: ${m.error.message}`);
    return this.move(m.value, text, [rule]);
  }

  alert(rule: RuleId): string {
    const id = `${this.ply}-${rule}-1`;
    this.apply({
      type: 'alert',
      t: this.t,
      alert: { id, rule, ply: this.ply, side: 'white', message: `${rule}`, t: this.t, events: [] },
    });
    return id;
  }

  apply(output: TrackerOutput): this {
    this.record.apply(output);
    return this;
  }

  get snapshot(): GameSnapshot {
    return this.record.snapshot();
  }
}

const piece = (pos: Position, square: number) => pos.pieceAt(square)!;

describe('every irregularity that can stand: the round replays move by move', () => {
  it('5.4.1 two moves in a row: the legal part in the board slot, the rest from the position on the board', () => {
    const b = new Board(1).play('32-28', '19-24');
    b.playAs('black', '14-19', '5.4.1');
    b.alert('5.4.1');
    // Not accepted yet: the broadcast waits at the legal part.
    let read = lidraughts([b.snapshot]);
    expect(read).toHaveLength(1);
    expect(read[0].moves).toEqual(['32-28', '19-24']);
    // White moves on: 5.7, it stands.
    b.play('31-26');
    read = lidraughts([b.snapshot]);
    expect(read).toHaveLength(2);
    expect(read[0].moves).toEqual(['32-28', '19-24']);
    expect(read[1].tags.FEN).toBe(b.snapshot.continued![0].fen);
    expect(read[1].moves).toEqual(['31-26']);
    expect(read[1].tags.Round).toBe('3 (board 1, continued from move 2)');
    expect(read[1].tags.White).toBe('White 1');
  });

  it('5.4.5 moving an opponent’s piece, 5.4.2 a man moved backwards, and the game goes on', () => {
    const five = new Board(1).play('32-28');
    five.playAs('white', '28-23', '5.4.5'); // White moved again, with its own man: then Black's …
    five.play('18x29', '33x24', '20x29');
    const two = new Board(2).play('32-28', '19-23');
    const backward = { from: 28, to: 32, path: [28, 32], captured: [], promotes: false, piece: 'w' } as const;
    two.move(backward, '28-32', ['5.4.2']).play('23-28');
    const read = lidraughts([five.snapshot, two.snapshot]);
    expect(read.map((g) => g.moves)).toEqual([
      ['32-28'],
      ['32-28', '19-23'],
      ['18x29', '33x24', '20x29'],
      ['23-28'],
    ]);
  });

  it('5.4.8 capturing fewer pieces than possible and 5.4.9 stopping in a multi-capture', () => {
    // White 37 can take 32 and 22 (two, 37x17); it takes one.
    const fen = 'W:W37,45:B32,22,5';
    const eight = new Board(1, { startFen: fen });
    const pos = eight.position;
    const one = { from: 37, to: 28, path: [37, 28], captured: [32], promotes: false, piece: piece(pos, 37) };
    eight.move(one, '37x28', ['5.4.8']).play('22x33');
    const nine = new Board(2, { startFen: fen });
    nine.move(one, '37x28', ['5.4.9']);
    nine.alert('5.4.9');
    nine.record.decide({ alertId: '1-5.4.9-1', kind: 'stands' }, nine.t);
    nine.record.decided(nine.t);
    const read = lidraughts([eight.snapshot, nine.snapshot]);
    expect(read.map((g) => [g.tags.FEN, g.moves])).toEqual([
      ['W:W37,45:B5,22,32', []],
      ['W:W37,45:B5,22,32', []],
      // In the order they stood: board 2's by the arbiter's word at once (its position, no move
      // yet), board 1's when Black moved on.
      [nine.snapshot.continued![0].fen, []],
      [eight.snapshot.continued![0].fen, ['22x33']],
    ]);
  });

  it('a position corrected by the arbiter continues from that position', () => {
    const b = new Board(4).play('32-28', '19-23');
    const corrected =
      'W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,28:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,24';
    b.apply({ type: 'position-set', t: 9000, fen: corrected, reason: '5.4.7 corrected by the arbiter' });
    b.record.decided(9000);
    b.position = at(corrected);
    b.play('28-22');
    const read = lidraughts([b.snapshot]);
    expect(read.map((g) => g.moves)).toEqual([['32-28', '19-23'], ['28-22']]);
    expect(read[1].tags.FEN).toBe(writeFen(at(corrected)));
  });

  it('an irregularity corrected on the board before the opponent moved publishes nothing of it', () => {
    const b = new Board(1).play('32-28');
    b.playAs('white', '33-29', '5.4.1');
    b.apply({ type: 'correction', t: 5000, ply: 1, fen: b.snapshot.moves[0].fenAfter, alertIds: [] });
    b.ply = 1;
    b.position = at(b.snapshot.fen);
    b.play('19-23');
    const read = lidraughts([b.snapshot]);
    expect(read.map((g) => g.moves)).toEqual([['32-28', '19-23']]);
  });

  it('a continuation keeps its place: a later one of another board comes after it, whatever their boards', () => {
    const one = new Board(1).play('32-28');
    const two = new Board(2).play('32-28');
    two.playAs('white', '33-29', '5.4.1');
    two.t = 10_000;
    two.play('19-23'); // stands at 10 s
    one.t = 20_000;
    one.playAs('white', '31-27', '5.4.1');
    one.play('19-23'); // stands at 20 s
    const read = lidraughts([one.snapshot, two.snapshot]);
    expect(read.map((g) => g.tags.Round)).toEqual([
      '3',
      '3',
      '3 (board 2, continued from move 2)',
      '3 (board 1, continued from move 2)',
    ]);
  });
});

describe('results and resets', () => {
  it('a board set up again after a finished game keeps the game in its slot; the result entered later is its', () => {
    const b = new Board(5).play('32-28', '19-23');
    b.apply({ type: 'new-game', t: 10_000, fen: b.snapshot.startFen });
    b.position = at(b.snapshot.startFen);
    b.ply = 0;
    b.play('34-30'); // the players show each other a line: not the round's game
    let read = lidraughts([b.snapshot]);
    expect(read).toHaveLength(1);
    expect(read[0].moves).toEqual(['32-28', '19-23']);
    // The arbiter writes the table's result: it goes to the game kept, not to the one on the board.
    const events = b.record.setResult('0-2', 11_000);
    expect(events.map((e) => e.kind)).toEqual(['table-game']);
    expect(b.snapshot.result).toBe('*');
    read = lidraughts([b.snapshot]);
    expect(read[0]).toMatchObject({ moves: ['32-28', '19-23'], result: '0-2' });
    // A game with its result is never replaced, however long the one after it.
    b.play('16-21', '30-25', '21-26');
    expect(lidraughts([b.snapshot])[0].moves).toEqual(['32-28', '19-23']);
  });

  it('a restarted game takes the slot once it is longer than the unfinished one before it', () => {
    const b = new Board(5).play('32-28');
    b.apply({ type: 'new-game', t: 10_000, fen: b.snapshot.startFen });
    b.position = at(b.snapshot.startFen);
    b.ply = 0;
    b.play('33-29');
    expect(lidraughts([b.snapshot])[0].moves).toEqual(['32-28']);
    b.play('19-23');
    expect(b.snapshot.tableGame).toBeUndefined();
    expect(lidraughts([b.snapshot])[0].moves).toEqual(['33-29', '19-23']);
  });

  it('moves after a result are not published', () => {
    const b = new Board(2).play('32-28', '19-23');
    b.record.setResult('1-1', 5000);
    b.play('28x19', '14x23');
    const [game] = lidraughts([b.snapshot]);
    expect(game).toMatchObject({ moves: ['32-28', '19-23'], result: '1-1' });
  });

  it("a finished game's published text is final: an alert raised after the result (a takeback while they go over it) is not in it", () => {
    const b = new Board(2).play('32-28', '19-23');
    b.alert('5.4.3');
    b.t += 1000;
    b.record.setResult('1-1', b.t);
    const before = roundFile(3, [b.snapshot], 'games.pdn', new PdnCache())!.body;
    expect(before).toContain('5.4.3');
    b.t += 5000;
    b.alert('5.4.4');
    expect(b.snapshot.alerts.map((a) => a.rule)).toEqual(['5.4.3', '5.4.4']);
    const after = roundFile(3, [b.snapshot], 'games.pdn', new PdnCache())!.body;
    expect(after).toBe(before);
    expect(after).not.toContain('5.4.4');
  });

  it('7.2: a position without a move is published with its result at once, while the arbiter confirms', () => {
    const b = new Board(1, { startFen: 'W:W28:B23' });
    b.play('28x19');
    expect(b.snapshot.result).toBe('*');
    expect(b.snapshot.proposedResult?.result).toBe('2-0');
    const [game] = lidraughts([b.snapshot]);
    expect(game).toMatchObject({ result: '2-0', decided: '2-0' });
    // Moves on the board after it are not the game's.
    expect(b.snapshot.continued).toBeUndefined();
  });

  it('a table result entered elsewhere (the tournament page) is the published one', () => {
    const b = new Board(1).play('32-28');
    const read = lidraughts([b.snapshot], (board) => (board === 1 ? '2-0' : undefined));
    expect(read[0].result).toBe('2-0');
  });
});

describe('a gap the arbiter answers', () => {
  it('each poll replays: the provisional line while the alert is open, then the line chosen and the move under way at the dump', () => {
    // A game from the position after 32-28 (its FEN tag); two lines lead to the dump, and White's man
    // on 31 is in the hand there.
    const start = playText(Position.initial(), '32-28');
    const shown = [...['18-22', '37-32', '20-24'].reduce(playText, start).toBoardString()];
    shown[30] = '.';
    const s = new Script(start);
    s.wait(1000).hello().snapshot(shown.join(''));
    s.wait(2000).tick();
    const dumped = s.events.length;
    s.put(27, 'w').wait(400).press('white').wait(2000).tick();
    const r = run(s.events.slice(0, dumped), { start });
    const record = new GameRecord({ info: info(1), startFen: writeFen(start) });
    for (const o of r.outputs) record.apply(o);
    const [gap] = r.alerts;
    expect(gap.rule).toBe('gap');
    expect(lidraughts([record.snapshot()])[0].moves).toEqual(gap.candidates![0]);
    const decision = { alertId: gap.id, kind: 'line' as const, line: 1 };
    record.decide(decision, 4_000);
    for (const o of r.tracker.decide(decision, 4_000)) record.apply(o);
    for (const e of s.events.slice(dumped)) for (const o of r.tracker.push(e)) record.apply(o);
    const [read] = lidraughts([record.snapshot()]);
    expect(read.moves).toEqual([...gap.candidates![1], '31-27']);
    expect(read.position.equals(r.tracker.state.position)).toBe(true);
  });
});

describe('tag values lidraughts keeps whole', () => {
  it('`]`, `"` and `\\` in names: every tag of the game survives', () => {
    const rec = new GameRecord({
      info: { ...info(1), white: 'Kees "de Bolle" [NL]', black: 'C:\\Users\\Piet] [Result "2-0"]' },
    });
    rec.apply(player().move('32-28', 1000));
    const [game] = lidraughts([rec.snapshot()]);
    expect(game.tags).toMatchObject({
      White: "Kees 'de Bolle' (NL)",
      Black: "C:/Users/Piet) (Result '2-0')",
      Result: '*',
      GameType: '20',
      Event: 'Cup',
    });
  });
});

describe('the reader the tests use stops where lidraughts stops', () => {
  it('the hall’s own record after a 5.4.1 that stood does not replay, nor does a `]` in a tag survive', async () => {
    const { gameToPdn } = await import('../../../src/game/index.ts');
    const b = new Board(1).play('32-28', '19-24');
    b.playAs('black', '14-19', '5.4.1');
    b.play('31-26');
    // The arbiter's file keeps the irregular move: lidraughts would stop its chapter there.
    const [hall] = readRound(gameToPdn(b.snapshot));
    expect(hall.stoppedAt).toBe('14-19');
    expect(() => readRound('[White "A]B"]\n[Black "C"]\n\n1. 32-28 *\n')).toThrow(/Cannot parse tags/);
  });
});
