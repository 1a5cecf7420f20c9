// Property: for any game history, (snapshot at version v) + since(v) = the current snapshot, and
// versions rise by one per event. This is what lets a reconnecting client catch up with `since`.
// The events are applied by the pages' own reader (daemon/web/js/game-events.js): the server's
// record and the pages agree on every event kind, each of which the histories here produce.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalMoves, moveNotation, play, Position, writeFen } from '../../../src/engine/index.ts';
import { GameRecord } from '../../../src/game/index.ts';
import type { GameEvent, GameSnapshot } from '../../../src/game/types.ts';
import type { TrackerOutput } from '../../../src/tracker/types.ts';
import type { ClockCommandOutcome } from '../../../firmware-protocol/clock-command.ts';
import { nextSnapshot } from '../../../daemon/web/js/game-events.js';

type Step = { kind: number; n: number };
const KINDS = [
  'move',
  'move',
  'move',
  'clock',
  'clock',
  'alert',
  'decide',
  'takeback',
  'gesture',
  'result',
  'info',
  'state',
  'position',
  'new-game',
  'advantage',
  'action',
  'clock-command',
] as const;

/** Plays a random but legal history into a record; returns every snapshot and event along the way. */
function run(steps: Step[], keep: number) {
  const rec = new GameRecord({
    info: { board: 1, round: 1, variant: 'international', timeControl: '5400+30' },
    keepEvents: keep,
    // 6.5 draws with advantage: a result event carries the side.
    drawProfile: { profile: 'fmjd', advantageDraw: true },
  });
  const snaps: GameSnapshot[] = [rec.snapshot()];
  const events: GameEvent[] = [];
  let positions = [Position.initial()];
  let t = 0;
  let alertNo = 0;
  const apply = (list: GameEvent[]) => {
    events.push(...list);
    snaps.push(rec.snapshot());
  };
  for (const { kind, n } of steps) {
    t += 100;
    const pos = positions.at(-1)!;
    const ply = positions.length - 1;
    const k = KINDS[kind % KINDS.length];
    if (k === 'move') {
      const legal = legalMoves(pos);
      if (legal.length === 0) continue;
      const move = legal[n % legal.length];
      const after = play(pos, move);
      positions = [...positions, after];
      const out: TrackerOutput = {
        type: 'move',
        t,
        ply: ply + 1,
        move,
        pdn: moveNotation(pos, move, legal),
        fenAfter: writeFen(after),
      };
      apply(rec.apply(out));
    } else if (k === 'clock') {
      const running = (['white', 'black', null] as const)[n % 3];
      apply(rec.clockEvent({ type: 'clock', t, white: 60_000 - n * 10, black: 50_000 - n * 7, running }));
    } else if (k === 'alert') {
      const alert = {
        id: `a${alertNo++ % 3}`,
        rule: '5.4.6' as const,
        ply: Math.max(1, ply - (n % 3) + 1),
        side: 'white' as const,
        message: `m${n}`,
        t,
        events: [],
      };
      apply(rec.apply({ type: 'alert', t, alert }));
    } else if (k === 'decide') {
      const id = `a${n % 3}`;
      apply(
        rec.decide(
          n % 2 ? { alertId: id, kind: 'stands' } : { alertId: id, kind: 'corrected', fen: writeFen(pos) },
          t,
        ),
      );
    } else if (k === 'takeback') {
      const back = Math.min(ply, 1 + (n % 2));
      positions = positions.slice(0, positions.length - back);
      apply(rec.apply({ type: 'takeback', t, ply: ply - back, fen: writeFen(positions.at(-1)!) }));
    } else if (k === 'gesture') {
      apply(rec.apply({ type: 'result-gesture', t, result: (['2-0', '1-1', '0-2'] as const)[n % 3] }));
    } else if (k === 'result') {
      apply(rec.setResult((['2-0', '1-1', '0-2', '*'] as const)[n % 4], t));
    } else if (k === 'info') {
      apply(rec.setInfo({ white: `W${n % 4}` }, t));
    } else if (k === 'state') {
      apply(
        rec.setState(
          (['active', 'silent', 'lost', 'connecting'] as const)[n % 4],
          t,
          n % 5 === 0 ? `S${n}` : undefined,
        ),
      );
    } else if (k === 'advantage') {
      apply(rec.setResult('1-1', t, n % 2 ? 'white' : 'black'));
    } else if (k === 'action') {
      const side = n % 2 ? ('white' as const) : ('black' as const);
      const actions = [
        { type: 'draw-offer', side },
        { type: 'increment', side },
        { type: 'resign', side },
        { type: 'draw-agreed' },
      ] as const;
      apply(rec.act(actions[n % actions.length], t));
    } else if (k === 'clock-command') {
      const asked = { white: 60_000 + n, black: 50_000, running: null };
      const outcomes: ClockCommandOutcome[] = [
        { set: true, answers: [] },
        { set: false, reason: 'replaced', answers: [] },
        { set: false, reason: 'no-capability', answers: [] },
      ];
      apply(rec.clockCommand(asked, outcomes[n % outcomes.length], t));
    } else if (k === 'position') {
      // The other side to move, now and then: the game leaves its line of legal moves there.
      const set = n % 2 ? pos.withTurn(pos.turn === 'white' ? 'black' : 'white') : pos;
      apply(rec.apply({ type: 'position-set', t, fen: writeFen(set), reason: 'arbiter' }));
    } else {
      positions = [Position.initial()];
      apply(rec.apply({ type: 'new-game', t, fen: writeFen(positions[0]) }));
    }
  }
  return { rec, snaps, events };
}

const history = fc.array(fc.record({ kind: fc.nat(), n: fc.nat(1000) }), { maxLength: 60 });

describe('GameEvents let clients catch up', () => {
  it('every event kind comes up in the histories', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(history, (steps) => {
        for (const e of run(steps, 500).events) seen.add(e.kind);
      }),
      // A fixed seed: the histories that make the rarest kinds (a continuation, the table's game)
      // are the same at every run.
      { numRuns: 300, seed: 36 },
    );
    expect([...seen].sort()).toEqual(
      [
        'action',
        'alert',
        'clock',
        'clock-command',
        'continued',
        'decision',
        'info',
        'move',
        'new-game',
        'position-set',
        'result',
        'state',
        'table-game',
        'takeback',
      ].sort(),
    );
  });

  it('versions rise by exactly one per event', () => {
    fc.assert(
      fc.property(history, (steps) => {
        const { events } = run(steps, 500);
        expect(events.map((e) => e.version)).toEqual(events.map((_, i) => i + 1));
      }),
      { numRuns: 200 },
    );
  });

  it('snapshot(v) + since(v) = snapshot(now), or since says the events are gone', () => {
    fc.assert(
      fc.property(history, fc.nat(20), (steps, keep) => {
        const { rec, snaps } = run(steps, keep + 1);
        const now = rec.snapshot();
        const seen = new Map(snaps.map((s) => [s.version, s]));
        for (const [v, snap] of seen) {
          const missed = rec.since(v);
          if (missed === undefined) {
            expect(now.version - v).toBeGreaterThan(keep + 1);
            continue;
          }
          expect(missed.reduce(nextSnapshot, snap)).toEqual(now);
        }
      }),
      { numRuns: 200 },
    );
  });
});
