// The round switch behind the server: the WebSocket call `round`, followers starting over with
// the new round's snapshots, events of the closed round no longer sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../daemon/server/index.ts';
import { RoundSwitch } from '../../daemon/tournament/round-switch.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';

const ARBITER_TOKEN = 'tournament-arbiter-token-1';

/** A round's hub that knows whether it runs. */
class RoundFake extends FakeHub {
  running = false;
  start(): void {
    this.running = true;
  }
  stop(): number {
    this.running = false;
    return 0;
  }
  journal = { ok: true, behind: 0, bound: 100 } as {
    ok: boolean;
    behind: number;
    bound: number;
    reason?: string;
  };
  journalHealth() {
    return this.journal;
  }
}

let first: RoundFake;
let second: RoundFake;
let hub: RoundSwitch;
let server: RunningServer;
let client: TestClient;

beforeAll(async () => {
  first = new RoundFake(2, 1);
  second = new RoundFake(2, 2, { white: 'Next, White' });
  hub = new RoundSwitch({
    first,
    create: (round) => (round === 2 ? second : first),
    refuse: (round) => (round > 2 ? `round ${round} has no pairings` : undefined),
  });
  hub.start();
  server = await startServer({ hub, port: 0, tokens: { arbiter: ARBITER_TOKEN } });
  client = await TestClient.open(server.wsUrl);
  await client.call('auth', { token: ARBITER_TOKEN });
});

afterAll(async () => {
  client.ws.close();
  await server.close();
});

const snapshotsOf = (round: number) =>
  client.messages.filter(
    (m) => m.response === 'feed' && m.param.kind === 'snapshot' && m.param.snapshot.info.round === round,
  );

describe('round switch', () => {
  it('the call starts the next round; followers get its snapshots; the closed round goes quiet', async () => {
    await client.call('subscribe', { feed: 'round', id: 'r' });
    await client.wait(() => snapshotsOf(1).length === 2);
    expect(first.running).toBe(true);

    expect((await client.call('round', { round: 3 })).param).toEqual({
      code: 'failed',
      message: 'round 3 has no pairings',
    });
    expect((await client.call('round', { round: 2 })).param).toEqual({ ok: true, round: 2 });
    expect([first.running, second.running, hub.round()]).toEqual([false, true, 2]);
    await client.wait(() => snapshotsOf(2).length === 2);
    expect(snapshotsOf(2).map((m) => m.param.snapshot.info.white)).toEqual(['Next, White', 'Next, White']);

    // The new round's events reach the follower; the closed round's do not.
    second.publish(second.boardsByNo.get(1)!.record.setResult('2-0', 10));
    first.publish(first.boardsByNo.get(2)!.record.setResult('0-2', 10));
    const result = await client.wait((m) => m.response === 'feed' && m.param.kind === 'result');
    expect(result.param).toMatchObject({ board: 1, result: '2-0' });
    await new Promise((r) => setTimeout(r, 100));
    expect(client.messages.filter((m) => m.response === 'feed' && m.param.kind === 'result')).toHaveLength(1);
  });

  it('boards and snapshots come from the round being played', () => {
    expect(hub.snapshot(1)?.info).toMatchObject({ round: 2, white: 'Next, White' });
    expect(hub.boards().map((b) => b.round)).toEqual([2, 2]);
  });

  it('an arbiter action (act) goes to the round being played', async () => {
    const [playing, closed] = hub.round() === 2 ? [second, first] : [first, second];
    await hub.act(2, { type: 'resign', side: 'white' });
    expect(playing.calls.at(-1)).toEqual({ call: 'act', board: 2, arg: { type: 'resign', side: 'white' } });
    expect(closed.calls.filter((c) => c.call === 'act')).toEqual([]);
    expect(hub.snapshot(2)?.result).toBe('0-2');
  });
});

describe('a round change while the journal cannot write', () => {
  it('is refused with journal-unavailable, and the round being played goes on', async () => {
    const playing = new RoundFake(1, 1);
    const next = new RoundFake(1, 2);
    const rounds = new RoundSwitch({ first: playing, create: () => next });
    rounds.start();
    playing.journal = { ok: false, behind: 12, bound: 100, reason: 'SQLITE_FULL: database or disk is full' };
    await expect(rounds.setRound(2)).rejects.toMatchObject({ code: 'journal-unavailable' });
    expect(rounds.round()).toBe(1);
    expect(playing.running).toBe(true);
    expect(next.running).toBe(false);
    playing.journal = { ok: true, behind: 0, bound: 100 };
    await rounds.setRound(2);
    expect(rounds.round()).toBe(2);
  });
});
