// One result per table, wherever it is entered: the tournament page's result reaches the board's
// game and the round's PDN; the console's reaches the table, also once the pieces were set up
// again after the game; a forfeit is published from the tournament; the TRF has what the table has.
import { describe, expect, it } from 'vitest';
import { followResults, tournamentReachesBoards } from '../../daemon/tournament/live.ts';
import { DEFAULT_TIEBREAKS, DRAUGHTS_POINTS, type Player } from '../../src/tournament/index.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { closeServed, serveHub } from '../daemon/server/fixtures/served-hub.ts';
import { readRound } from '../fixtures/lidraughts.ts';
import { roundOneEvent, servedTournament, tempStore } from './fixtures/helpers.ts';

const ARBITER_TOKEN = 'tournament-arbiter-token-2';

describe('one result per table', () => {
  const t = servedTournament('table-result', 3, ({ store, hub }) => {
    store.save(roundOneEvent(3));
    followResults(hub, store);
    return tournamentReachesBoards(store, hub);
  });

  const published = async () => readRound(await (await fetch(`${t.server.url}/rounds/1/games.pdn`)).text());
  const trf = async () => (await fetch(`${t.server.url}/api/v1/tournament.trf`)).text();

  it('entered on the tournament page: in the board’s game, the PDN and the TRF', async () => {
    t.hub.move(1, '32-28');
    const answer = await t.client.call('table-result', { round: 1, table: 1, result: '0-2' });
    expect(answer.param).toMatchObject({ ok: true, table: 1, result: '0-2' });
    await expect.poll(() => t.hub.snapshot(1)!.result).toBe('0-2');
    expect((await published())[0].result).toBe('0-2');
    // TRF: player 1 lost with white against 2 (`    2 w 0`).
    expect(await trf()).toMatch(/^001 {4}1 .* {4}2 w 0/m);
    // Cleared there: cleared on the board too.
    await t.client.call('table-result', { round: 1, table: 1, result: '*' });
    await expect.poll(() => t.hub.snapshot(1)!.result).toBe('*');
    expect((await published())[0].result).toBe('*');
  });

  it('entered in the console after the pieces were set up again: the table’s game gets it', async () => {
    t.hub.move(2, '32-28');
    t.hub.move(2, '19-23');
    t.hub.newGame(2);
    t.hub.move(2, '34-30');
    await t.client.call('result', { board: 2, result: '2-0' });
    expect(t.hub.snapshot(2)!.result).toBe('*');
    expect(t.hub.snapshot(2)!.tableGame?.result).toBe('2-0');
    expect(t.store.load()!.rounds[0].pairings[1].result).toEqual({ kind: 'game', score: '2-0' });
    const game = (await published())[1];
    expect(game).toMatchObject({ moves: ['32-28', '19-23'], result: '2-0' });
  });

  it('a forfeit stays the table’s; the broadcast shows the win', async () => {
    await t.client.call('table-result', { round: 1, table: 3, result: '+-' });
    expect(t.store.load()!.rounds[0].pairings[2].result).toEqual({ kind: 'forfeit', winner: 'white' });
    expect(t.hub.snapshot(3)!.result).toBe('*');
    expect((await published())[2].result).toBe('2-0');
  });
});

describe('the round’s pairings on its boards at once', () => {
  /** A club of `players` (no round paired yet) on `boards` boards, the tournament reaching them. */
  async function clubServed(
    name: string,
    players: number,
    boards: number,
    more: (start: number) => Partial<Player> = () => ({}),
  ) {
    const temp = tempStore(name);
    temp.store.save({
      name: 'Club',
      groups: [],
      players: Array.from({ length: players }, (_, i) => ({
        start: i + 1,
        name: `Player${i + 1}, A`,
        ...more(i + 1),
      })),
      rounds: [],
      points: DRAUGHTS_POINTS,
      tiebreaks: DEFAULT_TIEBREAKS,
      advantageDraws: false,
    });
    const hub = new FakeHub(boards, 1);
    const served = await serveHub(
      hub,
      { arbiter: ARBITER_TOKEN },
      { tournament: tournamentReachesBoards(temp.store, hub) },
    );
    return { temp, hub, served };
  }

  it('pairings imported for the round being played name the boards, no restart', async () => {
    const { temp, hub, served } = await clubServed('pairings-boards', 4, 2, (start) => ({
      fmjdId: `${16000 + start}`,
    }));
    try {
      const c = await served.open();
      await c.call('auth', { token: ARBITER_TOKEN });
      const answer = await c.call('pairings', { round: 1, csv: 'board,white,black\n1,3,1\n2,2,4\n' });
      expect(answer.param).toMatchObject({ ok: true, pairings: 2 });
      await expect
        .poll(() => hub.snapshot(1)!.info)
        .toMatchObject({
          white: 'Player3, A',
          black: 'Player1, A',
          whiteFmjdId: '16003',
        });
      expect(hub.snapshot(2)!.info).toMatchObject({ white: 'Player2, A', black: 'Player4, A' });
      // A withdrawal is kept with the player, and taken back.
      expect((await c.call('withdraw', { start: 2, round: 3 })).param).toEqual({
        ok: true,
        start: 2,
        withdrawn: 3,
      });
      expect(temp.store.load()!.players.find((p) => p.start === 2)?.withdrawn).toBe(3);
      await c.call('withdraw', { start: 2, round: null });
      expect(temp.store.load()!.players.find((p) => p.start === 2)).not.toHaveProperty('withdrawn');
      expect((await c.call('withdraw', { start: 9, round: 3 })).param).toMatchObject({ code: 'not-found' });
      // Pairings of another round leave the boards alone.
      await c.call('pairings', { round: 2, csv: 'board,white,black\n1,1,2\n2,4,3\n' });
      expect(hub.snapshot(1)!.info.white).toBe('Player3, A');
    } finally {
      await closeServed();
      temp.close();
    }
  });

  it('a pairing made mid-round renames the published games, never moves them', async () => {
    // lidraughts matches a round's games by their place in the file: a pairing while the games are
    // under way (a continuation on board 1, board 2's table game over and another game begun) may
    // change the names only.
    const { temp, hub, served } = await clubServed('pairing-mid-round', 6, 3);
    try {
      hub.move(1, '32-28');
      hub.feed(1, { type: 'position-set', t: 9_000, fen: 'B:W28,31,34-50:B1-20', reason: '5.4.7 stands' });
      hub.move(1, '19-23');
      hub.move(2, '34-29');
      hub.move(2, '17-21');
      await hub.setResult(2, '1-1');
      hub.newGame(2);
      hub.move(2, '31-26');
      hub.move(3, '33-28');
      const round = async () =>
        readRound(await (await fetch(`${served.server.url}/rounds/1/games.pdn`)).text()).map((g) => ({
          board: g.tags.Round,
          fen: g.tags.FEN,
          moves: g.moves,
          result: g.result,
          white: g.tags.White,
        }));
      const before = await round();
      expect(before.map((g) => g.moves)).toEqual([['32-28'], ['34-29', '17-21'], ['33-28'], ['19-23']]);
      const c = await served.open();
      await c.call('auth', { token: ARBITER_TOKEN });
      const answer = await c.call('pairings', { round: 1, csv: 'board,white,black\n1,1,2\n2,3,4\n3,5,6\n' });
      expect(answer.param).toMatchObject({ ok: true, pairings: 3 });
      await expect
        .poll(async () => (await round()).map((g) => g.white))
        .toEqual(['Player1, A', 'Player3, A', 'Player5, A', 'Player1, A']);
      const after = await round();
      expect(after.map(({ white: _, ...g }) => g)).toEqual(before.map(({ white: _, ...g }) => g));
    } finally {
      await closeServed();
      temp.close();
    }
  });
});
