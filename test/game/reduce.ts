// What a client does with GameEvents (docs/api.md feed items): the property tests check that a
// snapshot plus the events after it always gives the record's own snapshot.
import { moverOf } from '../../src/game/index.ts';
import type { GameEvent, GameSnapshot } from '../../src/game/types.ts';

export function reduce(snap: GameSnapshot, e: GameEvent): GameSnapshot {
  const s: GameSnapshot = { ...snap, version: e.version };
  switch (e.kind) {
    case 'move':
      return { ...s, moves: [...s.moves, e.move], fen: e.move.fenAfter };
    case 'takeback':
      return { ...s, moves: s.moves.filter((m) => m.ply <= e.ply), fen: e.fen };
    case 'new-game':
      return e.snapshot;
    case 'clock': {
      const clock = { white: e.white, black: e.black, running: e.running };
      const last = s.moves.at(-1);
      const moves =
        last && !last.clock && e.running !== moverOf(last)
          ? [...s.moves.slice(0, -1), { ...last, clock }]
          : s.moves;
      return { ...s, moves, clock: { ...clock, t: e.t } };
    }
    case 'alert': {
      const known = s.alerts.some((a) => a.id === e.alert.id);
      const alerts = known
        ? s.alerts.map((a) => (a.id === e.alert.id ? e.alert : a))
        : [...s.alerts, e.alert];
      const moves = s.moves.map((m) =>
        m.ply === e.alert.ply && !m.alerts?.includes(e.alert.id)
          ? { ...m, alerts: [...(m.alerts ?? []), e.alert.id] }
          : m,
      );
      return { ...s, alerts, moves };
    }
    case 'decision':
      return {
        ...s,
        alerts: s.alerts.map((a) => (a.id === e.alertId ? { ...a, decision: { ...e.decision, t: e.t } } : a)),
      };
    case 'position-set':
      return { ...s, fen: e.fen };
    case 'result': {
      const { proposedResult: _, ...rest } = s;
      return {
        ...rest,
        version: e.version,
        result: e.result,
        ...(e.proposed ? { proposedResult: e.proposed } : {}),
      };
    }
    case 'state':
      return { ...s, state: e.state, ...(e.serial !== undefined ? { serial: e.serial } : {}) };
    case 'info':
      return { ...s, info: e.info };
    case 'action':
      return {
        ...s,
        actions: [...(s.actions ?? []), e.action],
        ...(e.quickplay ? { quickplay: e.quickplay } : {}),
      };
    case 'clock-set':
      return s;
  }
}
