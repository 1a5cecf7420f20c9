// Keeps one GameSnapshot per board and applies versioned GameEvents to it (./game-events.js: the
// one reading of every event kind, held to the server's record by its tests).
import { applyEvent } from './game-events.js';

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
    // A board not heard from (reconnecting, lost) shows its clock as last read, not counting down.
    const heard = s.state !== 'connecting' && s.state !== 'lost';
    const elapsed =
      running && !finished && heard ? Math.max(0, now - (this.clockSeenAt.get(board) ?? now)) : 0;
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
