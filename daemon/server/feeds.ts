// Feeds: who follows what, the catch-up a new subscription gets (missed events or a snapshot), and
// the fan-out of every GameEvent — serialised once, framed once per distinct subscription id
// (a complete WebSocket frame, written to each socket as it is).
import type { GameEvent, GameSnapshot } from '../../src/game/types.ts';
import type { HubReader } from '../hub.ts';
import type { Subscription } from './client.ts';
import { type FeedItem, frame } from './protocol.ts';
import { playedGames, SnapshotJson } from '../views/rounds.ts';
import { textFrame } from './wire.ts';

/** Event kinds an arbiter's alerts feed carries. */
const ALERT_KINDS = new Set<GameEvent['kind']>(['alert', 'decision', 'result', 'state']);

export class Feeds {
  private readonly hub: HubReader;
  private readonly now: () => number;
  private readonly byBoard = new Map<number, Set<Subscription>>();
  private readonly rounds = new Set<Subscription>();
  private readonly alerts = new Set<Subscription>();

  constructor(
    hub: HubReader,
    now: () => number,
    /** A snapshot's JSON, once per version (the `games` call shares it). */
    private readonly snapshots = new SnapshotJson(),
  ) {
    this.hub = hub;
    this.now = now;
  }

  add(sub: Subscription): void {
    if (sub.feed === 'board') {
      const set = this.byBoard.get(sub.board!) ?? new Set();
      set.add(sub);
      this.byBoard.set(sub.board!, set);
    } else if (sub.feed === 'round') this.rounds.add(sub);
    else this.alerts.add(sub);
  }

  remove(sub: Subscription): void {
    if (sub.feed === 'board') {
      const set = this.byBoard.get(sub.board!);
      set?.delete(sub);
      if (set?.size === 0) this.byBoard.delete(sub.board!);
    } else if (sub.feed === 'round') this.rounds.delete(sub);
    else this.alerts.delete(sub);
  }

  /** Sends a new subscription what it needs before live events: missed events, or snapshots. */
  catchUp(sub: Subscription, since: Record<string, number> | number | undefined): void {
    if (sub.feed === 'alerts') {
      const games = this.hub.games(this.hub.round());
      const open = games.flatMap((g) => g.alerts.filter((a) => !a.decision));
      this.sendItem(sub, { kind: 'alerts', alerts: open });
      const proposals = games.flatMap((g) =>
        g.proposedResult ? [{ board: g.info.board, ...g.proposedResult }] : [],
      );
      this.sendItem(sub, { kind: 'proposals', proposals });
      return;
    }
    if (sub.feed === 'board') {
      const snap = this.hub.snapshot(sub.board!);
      if (snap) this.catchUpBoard(sub, snap.info.board, typeof since === 'number' ? since : undefined, snap);
      return;
    }
    const round = sub.round === 'current' ? this.hub.round() : sub.round!;
    const versions = typeof since === 'object' ? since : {};
    for (const game of playedGames(this.hub, round)) {
      this.catchUpBoard(sub, game.info.board, versions[String(game.info.board)], game);
    }
  }

  private catchUpBoard(
    sub: Subscription,
    board: number,
    since: number | undefined,
    snap: GameSnapshot,
  ): void {
    const missed = since === undefined ? undefined : this.hub.since(board, since);
    if (missed) {
      for (const e of missed) sub.client.send(frame('feed', sub.idJson, JSON.stringify(e), this.now()));
      sub.sent.set(board, missed.at(-1)?.version ?? since!);
      return;
    }
    this.sendItem(sub, { kind: 'snapshot', board, version: snap.version, snapshot: snap });
    sub.sent.set(board, snap.version);
  }

  /**
   * The round changed: a board number now names another game, with versions from 1 again. Who
   * follows the current round, a board or the alerts starts over with the new games' snapshots.
   */
  roundChanged(): void {
    const current = this.hub.round();
    const again = [
      ...[...this.byBoard.values()].flatMap((subs) => [...subs]),
      ...[...this.rounds].filter((sub) => sub.round === 'current' || sub.round === current),
      ...this.alerts,
    ];
    for (const sub of again) {
      sub.sent.clear();
      this.catchUp(sub, undefined);
    }
  }

  /** The hub moved `board` on without its events: who follows it gets its snapshot instead. */
  boardReset(board: number): void {
    const snap = this.hub.snapshot(board);
    if (!snap) return;
    const current = this.hub.round();
    const following = [
      ...(this.byBoard.get(board) ?? []),
      ...[...this.rounds].filter((sub) => sub.round === 'current' || sub.round === current),
    ];
    for (const sub of following) {
      this.sendItem(sub, { kind: 'snapshot', board, version: snap.version, snapshot: snap });
      sub.sent.set(board, snap.version);
    }
  }

  /** One GameEvent to everyone who follows it. */
  dispatch(event: GameEvent): void {
    const paramJson = JSON.stringify(event);
    const framed = new Map<string, Buffer>();
    const time = this.now();
    const send = (sub: Subscription) => {
      const floor = sub.sent.get(event.board);
      if (floor !== undefined) {
        if (event.version <= floor) return;
        sub.sent.delete(event.board);
      }
      let data = framed.get(sub.idJson);
      if (!data) {
        data = textFrame(frame('feed', sub.idJson, paramJson, time));
        framed.set(sub.idJson, data);
      }
      sub.client.sendFramed(data);
    };
    const boardSubs = this.byBoard.get(event.board);
    if (boardSubs) for (const sub of boardSubs) send(sub);
    if (this.rounds.size > 0) {
      const current = this.hub.round();
      for (const sub of this.rounds) if (sub.round === 'current' || sub.round === current) send(sub);
    }
    if (ALERT_KINDS.has(event.kind)) for (const sub of this.alerts) send(sub);
  }

  private sendItem(sub: Subscription, item: FeedItem): void {
    const json =
      item.kind === 'snapshot'
        ? `{"kind":"snapshot","board":${item.board},"version":${item.version},"snapshot":${this.snapshots.of(item.snapshot)}}`
        : JSON.stringify(item);
    sub.client.send(frame('feed', sub.idJson, json, this.now()));
  }
}
