// A scripted Hub for driving the pages without the whole daemon: boards, moves, clocks, alerts,
// decisions, results. It keeps snapshots and versioned events the way the contract says.
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { BoardSummary, Hub } from '../../daemon/hub.ts';
import { play, Position, parseFen, resolveMove, writeFen } from '../../src/engine/index.ts';
import type { Variant } from '../../src/engine/index.ts';
import type { ArbiterAction } from '../../src/game/actions.ts';
import type { AlertRecord, GameEvent, GameInfo, GameResult, GameSnapshot } from '../../src/game/types.ts';
import type { ArbiterDecision } from '../../src/tracker/types.ts';

type Change = GameEvent extends infer E
  ? E extends GameEvent
    ? Omit<E, 'board' | 'version' | 't'>
    : never
  : never;

interface BoardGame {
  snapshot: GameSnapshot;
  events: GameEvent[];
  /** Events at or below this version are "no longer kept": since() answers undefined. */
  forgottenUpTo: number;
}

export class FakeHub implements Hub {
  private readonly byBoard = new Map<number, BoardGame>();
  private readonly listeners = new Set<(e: GameEvent) => void>();
  readonly decisions: Array<{ board: number; decision: ArbiterDecision }> = [];
  /** Sensor events by board, as a journal would keep them (see `sense`). */
  private readonly sensed = new Map<number, BoardEvent[]>();
  /** While true, events are recorded but not pushed to subscribers (a lost feed message). */
  muted = false;
  now = 1_764_418_000_000;

  constructor(
    boards: Array<Partial<GameInfo> & { board: number }>,
    private readonly currentRound = 1,
  ) {
    for (const b of boards) {
      const variant: Variant = b.variant ?? 'international';
      const fen = writeFen(Position.initial(variant));
      const snapshot: GameSnapshot = {
        info: { round: currentRound, variant, ...b },
        version: 0,
        state: 'active',
        serial: `SIM-${b.board}`,
        startFen: fen,
        fen,
        moves: [],
        alerts: [],
        result: '*',
      };
      this.byBoard.set(b.board, { snapshot, events: [], forgottenUpTo: 0 });
    }
  }

  boards(): BoardSummary[] {
    return [...this.byBoard.values()].map(({ snapshot: s }) => ({
      board: s.info.board,
      round: s.info.round,
      source: `sim://${s.info.board}`,
      serial: s.serial,
      state: s.state,
      version: s.version,
    }));
  }
  round(): number {
    return this.currentRound;
  }
  snapshot(board: number): GameSnapshot | undefined {
    return this.byBoard.get(board)?.snapshot;
  }
  hasRound(round: number): boolean {
    return this.games(round).length > 0;
  }
  games(round: number): GameSnapshot[] {
    return [...this.byBoard.values()].map((g) => g.snapshot).filter((s) => s.info.round === round);
  }
  since(board: number, version: number): GameEvent[] | undefined {
    const g = this.byBoard.get(board);
    if (!g || version < g.forgottenUpTo || version > g.snapshot.version) return undefined;
    return g.events.filter((e) => e.version > version);
  }
  subscribe(listener: (event: GameEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  sensorEvents(board: number, from: number, to: number, limit: number): BoardEvent[] {
    return (this.sensed.get(board) ?? []).filter((e) => e.t >= from && e.t <= to).slice(0, limit);
  }
  /** Records sensor events of a board (what the journal would hold). */
  sense(board: number, events: readonly BoardEvent[]): void {
    this.sensed.set(board, [...(this.sensed.get(board) ?? []), ...events]);
  }
  async decide(board: number, decision: ArbiterDecision): Promise<void> {
    this.decisions.push({ board, decision });
    this.emit(board, { kind: 'decision', alertId: decision.alertId, decision });
    if (decision.kind === 'corrected')
      this.emit(board, { kind: 'position-set', fen: decision.fen, reason: 'arbiter' });
  }
  async setResult(board: number, result: GameResult | 'proposed'): Promise<void> {
    const proposed = this.snapshot(board)?.proposedResult;
    this.emit(board, { kind: 'result', result: result === 'proposed' ? (proposed?.result ?? '*') : result });
  }
  async setInfo(board: number, info: Partial<GameInfo>): Promise<void> {
    this.emit(board, { kind: 'info', info: { ...this.snapshot(board)!.info, ...info } });
  }
  /** Actions entered, in order (the console's end-of-game and Appendix G buttons). */
  readonly actions: { board: number; action: ArbiterAction }[] = [];
  async act(board: number, action: ArbiterAction): Promise<void> {
    this.actions.push({ board, action });
    const ply = this.snapshot(board)!.moves.at(-1)?.ply ?? 0;
    this.emit(board, { kind: 'action', action: { action, t: this.now, ply } });
  }
  /** Boards asked for a full dump, in order of the calls (every board when none was named). */
  readonly resyncs: number[][] = [];
  resync(board?: number): number[] {
    const asked = board === undefined ? [...this.byBoard.keys()] : [board];
    this.resyncs.push(asked);
    return asked;
  }

  /** Plays a move given in PDN (`32-28`, `19x28`) on a board. */
  move(board: number, text: string, clock?: { white: number; black: number }): void {
    const s = this.snapshot(board)!;
    const parsed = parseFen(s.fen, { variant: s.info.variant });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const pos = parsed.value;
    const resolved = resolveMove(pos, text);
    if (!resolved.ok) throw new Error(`board ${board}: ${resolved.error.message}`);
    const m = resolved.value;
    const after = play(pos, m);
    const ply = s.moves.length + 1;
    this.now += 4000;
    this.emit(board, {
      kind: 'move',
      move: {
        ply,
        pdn: text,
        from: m.from,
        to: m.to,
        path: [...m.path],
        captured: [...m.captured],
        fenAfter: writeFen(after),
        t: this.now,
        ...(clock ? { clock: { ...clock, running: after.turn } } : {}),
      },
    });
  }

  /** Raises an alert on a board; returns its id. */
  alert(board: number, alert: Omit<AlertRecord, 'board' | 't'>): string {
    this.now += 1000;
    this.emit(board, { kind: 'alert', alert: { ...alert, board, t: this.now } });
    return alert.id;
  }

  emit(board: number, change: Change): GameEvent {
    const g = this.byBoard.get(board)!;
    this.now += 10;
    const event = { ...change, board, version: g.snapshot.version + 1, t: this.now } as GameEvent;
    g.snapshot = applyToSnapshot(g.snapshot, event);
    g.events.push(event);
    if (!this.muted) for (const l of this.listeners) l(event);
    return event;
  }

  /** Pretends the hub no longer keeps old events: reconnecting clients get a snapshot. */
  forget(board: number): void {
    const g = this.byBoard.get(board)!;
    g.forgottenUpTo = g.snapshot.version;
    g.events = [];
  }
}

function applyToSnapshot(s: GameSnapshot, e: GameEvent): GameSnapshot {
  const next = { ...s, version: e.version };
  switch (e.kind) {
    case 'move':
      return {
        ...next,
        moves: [...s.moves, e.move],
        fen: e.move.fenAfter,
        clock: e.move.clock ? { ...e.move.clock, t: e.move.t } : s.clock,
      };
    case 'clock':
      return { ...next, clock: { white: e.white, black: e.black, running: e.running, t: e.t } };
    case 'alert':
      return { ...next, alerts: [...s.alerts.filter((a) => a.id !== e.alert.id), e.alert] };
    case 'decision':
      return {
        ...next,
        alerts: s.alerts.map((a) => (a.id === e.alertId ? { ...a, decision: { ...e.decision, t: e.t } } : a)),
      };
    case 'position-set':
      return { ...next, fen: e.fen };
    case 'result':
      return { ...next, result: e.result, proposedResult: e.proposed };
    case 'state':
      return { ...next, state: e.state, serial: e.serial ?? s.serial };
    case 'info':
      return { ...next, info: e.info };
    case 'takeback':
      return { ...next, moves: s.moves.filter((m) => m.ply <= e.ply), fen: e.fen };
    case 'new-game':
      return { ...e.snapshot, version: e.version };
    case 'action':
      return { ...next, actions: [...(s.actions ?? []), e.action], quickplay: e.quickplay ?? s.quickplay };
    case 'clock-set':
      return next;
  }
}
