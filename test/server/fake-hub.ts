// A Hub without boards: GameRecords fed by hand, so the server can be tested on its own.
import type { BoardSummary, Hub } from '../../daemon/hub.ts';
import type { Side } from '../../firmware-protocol/events.ts';
import { GameRecord } from '../../src/game/index.ts';
import type { ArbiterAction } from '../../src/game/actions.ts';
import type { GameEvent, GameInfo, GameResult, GameSnapshot } from '../../src/game/types.ts';
import type { ArbiterDecision, TrackerOutput } from '../../src/tracker/types.ts';

export interface FakeBoard {
  record: GameRecord;
  source: string;
}

export class FakeHub implements Hub {
  readonly boardsByNo = new Map<number, FakeBoard>();
  readonly calls: Array<{ call: string; board: number; arg: unknown }> = [];
  private readonly listeners = new Set<(e: GameEvent) => void>();
  private currentRound: number;
  private t = 0;
  /** Makes the next arbiter call fail with this message. */
  failNext: string | undefined;

  constructor(boards: number, round = 1, info: Partial<GameInfo> = {}, keepEvents = 200) {
    this.currentRound = round;
    for (let b = 1; b <= boards; b++) {
      const record = new GameRecord({
        info: {
          board: b,
          round,
          variant: 'international',
          white: `White${b}, Anna`,
          black: `Black${b}, Bo`,
          ...info,
        },
        keepEvents,
        state: 'active',
        serial: `SN-${b}`,
      });
      this.boardsByNo.set(b, { record, source: `tcp://127.0.0.1:${7000 + b}` });
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  /** Applies tracker outputs to a board and broadcasts the events, as the controller does. */
  feed(board: number, ...outputs: TrackerOutput[]): GameEvent[] {
    const rec = this.boardsByNo.get(board)!.record;
    const events = outputs.flatMap((o) => rec.apply(o));
    this.publish(events);
    return events;
  }

  publish(events: GameEvent[]): void {
    for (const e of events) for (const l of this.listeners) l(e);
  }

  boards(): BoardSummary[] {
    return [...this.boardsByNo.entries()].map(([board, b]) => {
      const s = b.record.snapshot();
      return {
        board,
        round: this.currentRound,
        source: b.source,
        serial: s.serial,
        state: s.state,
        version: s.version,
      };
    });
  }
  round(): number {
    return this.currentRound;
  }
  snapshot(board: number): GameSnapshot | undefined {
    return this.boardsByNo.get(board)?.record.snapshot();
  }
  hasRound(round: number): boolean {
    return round === this.currentRound;
  }
  /** Rounds whose games were asked for (a past round costs the controller a journal replay). */
  readonly gamesAsked: number[] = [];
  games(round: number): GameSnapshot[] {
    this.gamesAsked.push(round);
    if (round !== this.currentRound) return [];
    return [...this.boardsByNo.values()].map((b) => b.record.snapshot());
  }
  since(board: number, version: number): GameEvent[] | undefined {
    return this.boardsByNo.get(board)?.record.since(version);
  }
  subscribe(listener: (event: GameEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  private async call(call: string, board: number, arg: unknown, run: (r: GameRecord) => GameEvent[]) {
    this.calls.push({ call, board, arg });
    if (this.failNext) {
      const m = this.failNext;
      this.failNext = undefined;
      throw new Error(m);
    }
    this.publish(run(this.boardsByNo.get(board)!.record));
  }
  decide(board: number, decision: ArbiterDecision): Promise<void> {
    return this.call('decide', board, decision, (r) => r.decide(decision, ++this.t));
  }
  setResult(board: number, result: GameResult, advantage?: Side): Promise<void> {
    return this.call('setResult', board, result, (r) => r.setResult(result, ++this.t, advantage));
  }
  setInfo(board: number, info: Partial<GameInfo>): Promise<void> {
    return this.call('setInfo', board, info, (r) => r.setInfo(info, ++this.t));
  }
  act(board: number, action: ArbiterAction): Promise<void> {
    return this.call('act', board, action, (r) => r.act(action, ++this.t));
  }
  resync(board?: number): number[] {
    this.calls.push({ call: 'resync', board: board ?? 0, arg: undefined });
    return board === undefined ? [...this.boardsByNo.keys()] : [board];
  }
}
