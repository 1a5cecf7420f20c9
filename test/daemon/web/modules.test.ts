// The viewer's pure modules (plain browser JS, no build step) checked in Node against the engine.
import { describe, expect, it } from 'vitest';
import { geometry, legalMoves, play, Position, parseFen, writeFen } from '../../../src/engine/index.ts';
import { web } from './fixtures/web-module.ts';

// Dynamic imports keep the untyped browser modules out of the type checker.
describe('geometry.js', () => {
  it('places every square where the engine does (FMJD numbering, both variants)', async () => {
    const { squareCell, boardWidth } = await web('geometry.js');
    for (const variant of ['international', 'brazilian'] as const) {
      const g = geometry(variant);
      expect(boardWidth(variant)).toBe(g.width);
      for (let s = 1; s <= g.squares; s++) {
        expect(squareCell(g.width, s)).toEqual({ row: g.rowOf[s], col: g.colOf[s] });
      }
    }
  });

  it('square 1 is the second square of the top row and 46 White’s bottom-left; flipping turns 180°', async () => {
    const { squareCell, drawnCell } = await web('geometry.js');
    expect(squareCell(10, 1)).toEqual({ row: 0, col: 1 });
    expect(squareCell(10, 46)).toEqual({ row: 9, col: 0 });
    expect(drawnCell(10, 46, true)).toEqual({ row: 0, col: 9 });
    expect(squareCell(8, 29)).toEqual({ row: 7, col: 0 });
  });
});

describe('fen.js', () => {
  it('reads what the engine writes and writes what the engine reads', async () => {
    const { readFen, writeFen: webWriteFen } = await web('fen.js');
    let pos = Position.initial();
    for (let i = 0; i < 30; i++) {
      const fen = writeFen(pos);
      const read = readFen(fen);
      expect(read.turn).toBe(pos.turn);
      expect([...read.pieces.entries()].sort((a, b) => a[0] - b[0])).toEqual(pos.pieces());
      const back = parseFen(webWriteFen(read.turn, read.pieces));
      expect(back.ok && back.value.equals(pos)).toBe(true);
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      pos = play(pos, moves[(i * 7) % moves.length]);
    }
  });

  it('reads ranges and kings, and refuses garbage', async () => {
    const { readFen } = await web('fen.js');
    const read = readFen('B:W31-33,K5:BK46,1');
    expect(read.turn).toBe('black');
    expect([...read.pieces.entries()]).toEqual([
      [31, 'w'],
      [32, 'w'],
      [33, 'w'],
      [5, 'W'],
      [46, 'B'],
      [1, 'b'],
    ]);
    expect(readFen('hello')).toBeNull();
    expect(readFen('W:X12')).toBeNull();
  });

  it("reads a FEN as the engine does, lidraughts' counters and spaces after a comma included", async () => {
    const { readFen } = await web('fen.js');
    for (const fen of ['W:W31-50:B1-20:H0:F1', 'B:W31, 32, K46:B1-3.', 'W:WK3:BK47']) {
      const engine = parseFen(fen);
      if (!engine.ok) throw new Error(engine.error.message);
      const read = readFen(fen);
      expect(read.turn, fen).toBe(engine.value.turn);
      expect(
        [...read.pieces.entries()].sort((a, b) => a[0] - b[0]),
        fen,
      ).toEqual(engine.value.pieces());
    }
    // What the engine refuses as text, the pages do not draw.
    for (const fen of ['W:W40-31', 'W:W31;B1', 'W;W31', '?:W31']) expect(readFen(fen), fen).toBeNull();
  });
});

describe('store.js', () => {
  const snapshot = (version: number) => ({
    info: { board: 1, round: 1, variant: 'international' },
    version,
    state: 'active',
    startFen: 'W:W31:B1',
    fen: 'W:W31:B1',
    moves: [],
    alerts: [],
    result: '*',
  });
  const move = (version: number, ply: number, pdn: string) => ({
    board: 1,
    version,
    t: 1000 + ply,
    kind: 'move',
    move: { ply, pdn, from: 0, to: 0, path: [], captured: [], fenAfter: `fen-${ply}`, t: 1000 + ply },
  });
  /** The page's store holding board 1 at `version`. */
  const storeAt = async (version: number) => {
    const { GameStore } = await web('store.js');
    const store = new GameStore();
    store.setSnapshot(snapshot(version));
    return store;
  };

  it('applies consecutive versions once, drops duplicates and reports gaps', async () => {
    const store = await storeAt(5);
    expect(store.applyEvent(move(6, 1, '32-28'))).toBe('applied');
    expect(store.applyEvent(move(6, 1, '32-28'))).toBe('duplicate');
    expect(store.applyEvent(move(4, 1, '32-28'))).toBe('duplicate');
    expect(store.applyEvent(move(8, 3, '37-32'))).toBe('gap');
    expect(store.applyEvent(move(7, 2, '18-23'))).toBe('applied');
    expect(store.get(1).moves.map((m: { pdn: string }) => m.pdn)).toEqual(['32-28', '18-23']);
    expect(store.get(1).fen).toBe('fen-2');
    expect(store.versions()).toEqual({ 1: 7 });
  });

  it('takes a snapshot from the server as the truth, even at a lower version (daemon restarted)', async () => {
    const store = await storeAt(5);
    store.applyEvent(move(6, 1, '32-28'));
    store.setSnapshot(snapshot(3));
    expect(store.get(1).version).toBe(3);
    expect(store.get(1).moves).toEqual([]);
    expect(store.applyEvent(move(4, 1, '33-28'))).toBe('applied');
    expect(store.versions()).toEqual({ 1: 4 });
  });

  it('records decisions on alerts, takebacks, results and a counting-down running clock', async () => {
    const store = await storeAt(0);
    store.applyEvent(move(1, 1, '32-28'));
    store.applyEvent(move(2, 2, '18-23'));
    const alert = {
      id: '2-5.4.6-1',
      rule: '5.4.6',
      ply: 2,
      side: 'black',
      message: 'm',
      t: 5,
      events: [],
      board: 1,
    };
    store.applyEvent({ board: 1, version: 3, t: 6, kind: 'alert', alert });
    store.applyEvent({
      board: 1,
      version: 4,
      t: 7,
      kind: 'decision',
      alertId: alert.id,
      decision: { alertId: alert.id, kind: 'stands' },
    });
    expect(store.get(1).alerts[0].decision).toEqual({ alertId: alert.id, kind: 'stands', t: 7 });
    store.applyEvent({ board: 1, version: 5, t: 8, kind: 'takeback', ply: 1, fen: 'fen-1' });
    expect(store.get(1).moves).toHaveLength(1);
    store.applyEvent(
      { board: 1, version: 6, t: 9, kind: 'clock', white: 60_000, black: 50_000, running: 'black' },
      1_000,
    );
    expect(store.clockNow(1, 3_500)).toEqual({ white: 60_000, black: 47_500, running: 'black' });
    // A board not heard from (after a restart, or lost): its clock as last read, not counting down.
    store.applyEvent({ board: 1, version: 7, t: 10, kind: 'state', state: 'connecting' }, 1_000);
    expect(store.clockNow(1, 3_500)).toEqual({ white: 60_000, black: 50_000, running: 'black' });
    store.applyEvent({ board: 1, version: 8, t: 11, kind: 'state', state: 'active' }, 1_000);
    expect(store.clockNow(1, 3_500)).toEqual({ white: 60_000, black: 47_500, running: 'black' });
    store.applyEvent({ board: 1, version: 9, t: 12, kind: 'result', result: '2-0' }, 1_000);
    expect(store.clockNow(1, 3_500)?.running).toBeNull();
    expect(store.get(1).result).toBe('2-0');
  });
});

describe('format.js', () => {
  it('formats clocks and numbers move rows, also when Black moves first', async () => {
    const { formatClock, moveRows } = await web('format.js');
    expect(formatClock(5_400_000)).toBe('1:30:00');
    expect(formatClock(247_900)).toBe('4:07');
    expect(formatClock(9_450)).toBe('9.4');
    expect(formatClock(9_450, ',')).toBe('9,4');
    expect(formatClock(-5)).toBe('0.0');
    expect(moveRows([{}, {}, {}])).toEqual([
      { number: 1, white: 1, black: 2 },
      { number: 2, white: 3, black: null },
    ]);
    expect(moveRows([{}, {}], 'black')).toEqual([
      { number: 1, white: null, black: 1 },
      { number: 2, white: 2, black: null },
    ]);
  });
});

describe('board-svg.js', () => {
  it('draws every dark square, every piece, the move path and crosses on captured squares', async () => {
    const { boardSvg } = await web('board-svg.js');
    const svg: string = boardSvg({
      fen: 'B:W28,K5:B12',
      move: { from: 32, to: 28, path: [32, 28], captured: [] },
    });
    expect(svg.match(/class="sq/g)).toHaveLength(50);
    expect(svg.match(/data-piece="/g)).toHaveLength(3);
    expect(svg).toContain('data-piece="W"');
    expect(svg.match(/class="sq last"/g)).toHaveLength(2);
    const capture: string = boardSvg({
      fen: 'B:W23:B1',
      variant: 'brazilian',
      move: { from: 32, to: 14, path: [32, 23, 14], captured: [28, 18] },
    });
    expect(capture.match(/class="sq/g)).toHaveLength(32);
    expect(capture.match(/class="captured" data-square="(\d+)"/g)).toEqual([
      'class="captured" data-square="28"',
      'class="captured" data-square="18"',
    ]);
  });
});

describe('calibration.js', () => {
  it('a prompt as a message key of the tables, and the board it wants with its piece on the square', async () => {
    const { promptMessage, promptFen, promptSquare, pieceCodesText } = await web('calibration.js');
    const { readFen } = await web('fen.js');
    expect(promptMessage({ action: 'setup', n: 1, of: 54 })).toEqual({
      key: 'calibrate.prompt.setup',
      params: { square: undefined },
    });
    expect(promptMessage({ action: 'king', square: 23, piece: 'B' }).key).toBe('calibrate.prompt.king.B');
    expect(promptMessage({ action: 'put-remove', square: 21, piece: 'o' })).toEqual({
      key: 'calibrate.prompt.put-remove.o',
      params: { square: 21 },
    });
    // The start position, as the engine writes it.
    const start = readFen(promptFen({ action: 'lift-return', square: 7 }, 10)).pieces;
    expect([...start.entries()].sort((a, b) => a[0] - b[0])).toEqual(Position.initial().pieces());
    const king = readFen(promptFen({ action: 'king', square: 28, piece: 'B' }, 10)).pieces;
    expect(king.get(28)).toBe('B');
    expect(king.size).toBe(41);
    expect(readFen(promptFen({ action: 'put-remove', square: 13, piece: 'w' }, 8)).pieces.get(13)).toBe('w');
    expect(promptSquare({ action: 'check' })).toBeUndefined();
    expect(promptSquare({ action: 'lift-return', square: 1 })).toBe(1);
    expect(pieceCodesText({ pieces: { w: 4, b: 1, W: 10, B: 7 } })).toBe('w 0x04 · b 0x01 · W 0x0a · B 0x07');
    expect(pieceCodesText({ occupied: 0x51 })).toBe('0x51');
  });
});
