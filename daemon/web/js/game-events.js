// A board's GameEvents (src/game/types.ts, docs/api.md) applied to its GameSnapshot: the one
// reading of every event kind. The pages keep their boards with it (store.js), and the record's
// tests hold it to the record itself (test/src/game/events.property.test.ts: a snapshot and the
// events after it give the record's own snapshot), so the two cannot drift apart. Pure.
//
// Versions make the feed idempotent: an event at or below the board's version is a duplicate
// (dropped), one that skips a version is a gap (the caller asks the server again `since`).

// The shapes are src/game/types.ts's (GameSnapshot, GameEvent); the pages' type check does not
// reach into the TypeScript tree, so they are plain objects here.
/** @typedef {Record<string, any>} GameSnapshot */
/** @typedef {Record<string, any>} GameEvent */
/** @typedef {{ fenAfter: string }} RecordedMove */

/**
 * Applies one event to a board's snapshot (undefined: none held yet).
 * @param {GameSnapshot | undefined} snapshot
 * @param {GameEvent} event
 * @returns {{ status: 'applied', snapshot: GameSnapshot } | { status: 'duplicate' } | { status: 'gap' }}
 */
export function applyEvent(snapshot, event) {
  if (event.kind === 'new-game') {
    if (snapshot && event.version <= snapshot.version) return { status: 'duplicate' };
    return { status: 'applied', snapshot: { ...event.snapshot, version: event.version } };
  }
  if (!snapshot) return { status: 'gap' };
  if (event.version <= snapshot.version) return { status: 'duplicate' };
  if (event.version !== snapshot.version + 1) return { status: 'gap' };
  return { status: 'applied', snapshot: nextSnapshot(snapshot, event) };
}

/**
 * The snapshot after `e`, the next event of its board (no version check).
 * @param {GameSnapshot} snap
 * @param {GameEvent} e
 * @returns {GameSnapshot}
 */
export function nextSnapshot(snap, e) {
  /** @type {GameSnapshot} */
  const s = { ...snap, version: e.version };
  switch (e.kind) {
    case 'move':
      // A move of a ply already recorded replaces it and every one after it (a gap's line chosen).
      return { ...s, moves: [...s.moves.filter((m) => m.ply < e.move.ply), e.move], fen: e.move.fenAfter };
    case 'takeback':
      return { ...s, moves: s.moves.filter((m) => m.ply <= e.ply), fen: e.fen };
    case 'new-game':
      return { ...e.snapshot, version: e.version };
    case 'clock': {
      const clock = { white: e.white, black: e.black, running: e.running };
      // The first reading after a move, its mover's clock stopped: the move's clock.
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
      const { proposedResult: _p, resultPly: _r, resultT: _t, advantage: _a, ...rest } = s;
      return {
        ...rest,
        result: e.result,
        ...(e.advantage ? { advantage: e.advantage } : {}),
        ...(e.proposed ? { proposedResult: e.proposed } : {}),
        // The game ends where it stood when the result was written.
        ...(e.result !== '*' ? { resultPly: s.moves.at(-1)?.ply ?? 0, resultT: e.t } : {}),
      };
    }
    case 'continued':
      return { ...s, continued: [...(s.continued ?? []), e.continuation] };
    case 'table-game': {
      const { tableGame: _, ...rest } = s;
      return e.game ? { ...rest, tableGame: e.game } : rest;
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
      // What damlink asks of the board's clock: its readings follow as `clock` events.
      return s;
    case 'clock-command': {
      const { outcome } = e;
      if (outcome.set) return { ...s, clockCommand: { set: true, t: e.t } };
      // A replaced setting changes nothing: the newer one's answer follows.
      if (outcome.reason === 'replaced') return s;
      return { ...s, clockCommand: { set: false, reason: outcome.reason, t: e.t } };
    }
    default:
      return s;
  }
}

/**
 * The side that made a recorded move: the one not to move after it.
 * @param {RecordedMove} move
 * @returns {'white' | 'black'}
 */
export const moverOf = (move) => (move.fenAfter.trim()[0]?.toUpperCase() === 'W' ? 'black' : 'white');
