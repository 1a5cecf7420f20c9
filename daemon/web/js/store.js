// Keeps one GameSnapshot per board and applies versioned GameEvents (src/game/types.ts) to it.
// Versions make the feed idempotent: an event at or below the board's version is a duplicate
// (dropped), one that skips a version is a gap (the caller asks the server again `since`).

/**
 * Applies one GameEvent to a snapshot (pure: returns a new snapshot).
 * @returns {{ status: 'applied', snapshot: object } | { status: 'duplicate' } | { status: 'gap' }}
 */
export function applyEvent(snapshot, event) {
  if (event.kind === 'new-game') {
    if (snapshot && event.version <= snapshot.version) return { status: 'duplicate' };
    return { status: 'applied', snapshot: { ...event.snapshot, version: event.version } };
  }
  if (!snapshot) return { status: 'gap' };
  if (event.version <= snapshot.version) return { status: 'duplicate' };
  if (event.version !== snapshot.version + 1) return { status: 'gap' };
  return { status: 'applied', snapshot: { ...change(snapshot, event), version: event.version } };
}

function change(s, e) {
  switch (e.kind) {
    case 'move': {
      const moves = [...s.moves.filter((m) => m.ply < e.move.ply), e.move];
      const clock = e.move.clock ? { ...e.move.clock, t: e.move.t } : s.clock;
      return { ...s, moves, fen: e.move.fenAfter, clock };
    }
    case 'takeback':
      return { ...s, moves: s.moves.filter((m) => m.ply <= e.ply), fen: e.fen };
    case 'clock':
      return { ...s, clock: { white: e.white, black: e.black, running: e.running, t: e.t } };
    case 'alert':
      return { ...s, alerts: [...s.alerts.filter((a) => a.id !== e.alert.id), e.alert] };
    case 'decision':
      return {
        ...s,
        alerts: s.alerts.map((a) => (a.id === e.alertId ? { ...a, decision: { ...e.decision, t: e.t } } : a)),
      };
    case 'position-set':
      return {
        ...s,
        fen: e.fen,
        positionSet: [...(s.positionSet ?? []), { fen: e.fen, reason: e.reason, t: e.t }],
      };
    case 'result':
      return { ...s, result: e.result, proposedResult: e.proposed };
    case 'continued':
      return { ...s, continued: [...(s.continued ?? []), e.continuation] };
    case 'table-game':
      return { ...s, tableGame: e.game ?? undefined };
    case 'state':
      return { ...s, state: e.state, serial: e.serial ?? s.serial };
    case 'info':
      return { ...s, info: { ...s.info, ...e.info } };
    case 'action':
      return { ...s, actions: [...(s.actions ?? []), e.action], quickplay: e.quickplay ?? s.quickplay };
    case 'clock-command':
      // A replaced setting changes nothing: the newer one's answer follows.
      if (!e.outcome.set && e.outcome.reason === 'replaced') return s;
      return {
        ...s,
        clockCommand: e.outcome.set
          ? { set: true, t: e.t }
          : { set: false, reason: e.outcome.reason, t: e.t },
      };
    default:
      return s;
  }
}

/** Snapshots of all boards, with listeners told which board changed. */
export class GameStore {
  constructor() {
    /** @type {Map<number, object>} */
    this.games = new Map();
    this.listeners = new Set();
    /** Local receive time of each board's clock, so the running clock can tick between updates. */
    this.clockSeenAt = new Map();
  }

  onChange(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Board numbers in board order. */
  boards() {
    return [...this.games.keys()].sort((a, b) => a - b);
  }

  get(board) {
    return this.games.get(board);
  }

  /** `{ board: version }` for a resubscription after a drop. */
  versions() {
    return Object.fromEntries([...this.games].map(([b, s]) => [b, s.version]));
  }

  /**
   * The server sends a snapshot when it cannot send the missed events (or the daemon restarted and
   * numbers its versions anew): it is the truth and replaces what the page holds.
   */
  setSnapshot(snapshot, receivedAt = Date.now()) {
    this.games.set(snapshot.info.board, snapshot);
    this.clockSeenAt.set(snapshot.info.board, receivedAt);
    this.emit(snapshot.info.board, null);
  }

  /** @returns {'applied'|'duplicate'|'gap'} */
  applyEvent(event, receivedAt = Date.now()) {
    const before = this.games.get(event.board);
    const outcome = applyEvent(before, event);
    if (outcome.status !== 'applied') return outcome.status;
    this.games.set(event.board, outcome.snapshot);
    if (outcome.snapshot.clock !== before?.clock) this.clockSeenAt.set(event.board, receivedAt);
    this.emit(event.board, event);
    return 'applied';
  }

  /** Remaining time of both sides now, counting down the running one since it was received. */
  clockNow(board, now = Date.now()) {
    const s = this.games.get(board);
    if (!s?.clock) return null;
    const { white, black, running } = s.clock;
    const finished = s.result && s.result !== '*';
    const elapsed = running && !finished ? Math.max(0, now - (this.clockSeenAt.get(board) ?? now)) : 0;
    return {
      white: running === 'white' ? white - elapsed : white,
      black: running === 'black' ? black - elapsed : black,
      running: finished ? null : running,
    };
  }

  emit(board, event) {
    for (const l of this.listeners) l(board, event);
  }
}
