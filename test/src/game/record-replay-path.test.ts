// The record's per-move shortcuts change nothing: a tracker FEN written another way (ranges, other
// order) takes the parsing path and must give the same record as the engine's own FEN text; and
// the events kept for `since` are exactly the last `keepEvents`, however many came before.
import { describe, expect, it } from 'vitest';
import type { Position } from '../../../src/engine/index.ts';
import { GameRecord } from '../../../src/game/index.ts';
import type { GameInfo } from '../../../src/game/types.ts';
import type { TrackerOutput } from '../../../src/tracker/types.ts';
import { player } from './fixtures/helpers.ts';

const info: GameInfo = { board: 7, round: 1, variant: 'international' };

/** The same position as writeFen gives, written the other way: black first, squares descending. */
function otherFen(pos: Position): string {
  const side = (white: boolean) =>
    pos
      .pieces()
      .filter(([, p]) => (p === 'w' || p === 'W') === white)
      .reverse()
      .map(([s, p]) => (p === 'W' || p === 'B' ? `K${s}` : `${s}`))
      .join(',');
  return `${pos.turn === 'white' ? 'W' : 'B'}:B${side(false)}:W${side(true)}`;
}

const MOVES = ['32-28', '19-23', '28x19', '14x23', '33-28', '23x32', '37x28'];

describe('GameRecord: the move path', () => {
  it('the engine-written FEN (no parsing) and another spelling of it give the same record', () => {
    const a = new GameRecord({ info, autoResult: true });
    const b = new GameRecord({ info, autoResult: true });
    const p = player();
    MOVES.forEach((text, i) => {
      const out = p.move(text, 1000 * (i + 1)) as Extract<TrackerOutput, { type: 'move' }>;
      expect(otherFen(p.position)).not.toBe(out.fenAfter);
      const ea = a.apply(out);
      const eb = b.apply({ ...out, fenAfter: otherFen(p.position) });
      expect(ea).toEqual(eb);
    });
    expect(a.snapshot()).toEqual(b.snapshot());
    expect(a.toPdn()).toBe(b.toPdn());
  });

  it('7.2 the game-end review still proposes the result after the last move', () => {
    const rec = new GameRecord({ info });
    const p = player('W:W28:B23');
    const events = rec.apply(p.move('28x19', 1000));
    expect(events.map((e) => e.kind)).toEqual(['move', 'result']);
    expect(rec.snapshot().proposedResult).toMatchObject({ result: '2-0' });
  });

  it('since serves the last keepEvents events, whatever came before', () => {
    const keep = 5;
    const rec = new GameRecord({ info, keepEvents: keep });
    for (let i = 1; i <= 37; i++) {
      rec.clockEvent({ type: 'clock', t: i, white: 1000 - i, black: 1000, running: 'white' });
      const v = rec.currentVersion;
      expect(v).toBe(i);
      for (let back = 0; back <= keep + 2; back++) {
        const got = rec.since(v - back);
        if (back <= keep && v - back >= 0)
          expect(got?.map((e) => e.version)).toEqual(
            Array.from({ length: back }, (_, k) => v - back + 1 + k),
          );
        else expect(got).toBeUndefined();
      }
    }
  });
});
