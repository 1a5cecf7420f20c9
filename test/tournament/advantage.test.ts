// 6.5 draws with advantage (1+/1−) from the arbiter's call to the PDN, and into the tournament.
import { describe, expect, it } from 'vitest';
import { followResults } from '../../daemon/tournament/live.ts';
import { GameRecord, gameToPdn } from '../../src/game/index.ts';
import { roundOneEvent, servedTournament } from './fixtures/helpers.ts';

const _ARBITER_TOKEN = 'tournament-arbiter-token-1';

describe('6.5 a draw with advantage in the game record', () => {
  const record = (variant: 'international' | 'brazilian' = 'international', drawProfile = 'advantage') =>
    new GameRecord({ info: { board: 1, round: 1, variant }, drawProfile });

  it('the snapshot keeps the side; the PDN keeps Result 1-1 and adds Advantage', () => {
    const r = record();
    const [event] = r.setResult('1-1', 5, 'black');
    expect(event).toMatchObject({ kind: 'result', result: '1-1', advantage: 'black' });
    expect(r.snapshot()).toMatchObject({ result: '1-1', advantage: 'black' });
    const pdn = gameToPdn(r.snapshot());
    expect(pdn).toContain('[Result "1-1"]');
    expect(pdn).toContain('[Advantage "Black"]');
  });

  it('only where the tournament plays them, never in the 64 version', () => {
    expect(record('international', 'fmjd').setResult('1-1', 5, 'white')[0]).not.toHaveProperty('advantage');
    expect(record('brazilian').setResult('1-1', 5, 'white')[0]).not.toHaveProperty('advantage');
    expect(record('brazilian').snapshot().advantage).toBeUndefined();
  });

  it('only a draw carries an advantage; another result clears it', () => {
    const r = record();
    r.setResult('1-1', 5, 'white');
    r.setResult('2-0', 6, 'white');
    expect(r.snapshot().advantage).toBeUndefined();
    expect(gameToPdn(r.snapshot())).not.toContain('Advantage');
  });
});

describe('the result call with an advantage, and the tournament table', () => {
  const t = servedTournament('advantage', 2, ({ store, hub }) => {
    store.save(roundOneEvent(2, { name: 'X', advantageDraws: true }));
    // The boards play with 6.5 draws with advantage.
    for (const [board, b] of hub.boardsByNo)
      b.record = new GameRecord({
        info: { board, round: 1, variant: 'international' },
        drawProfile: 'advantage',
        state: 'active',
      });
    followResults(hub, store);
    return store;
  });

  it('{"result":"1-1","advantage":"white"}: answered, served, written to the table', async () => {
    const answer = await t.client.call('result', { board: 1, result: '1-1', advantage: 'white' });
    expect(answer.param).toEqual({ ok: true, result: '1-1', advantage: 'white' });
    const snap = await (await fetch(`${t.server.url}/api/v1/games/1`)).json();
    expect(snap).toMatchObject({ result: '1-1', advantage: 'white' });
    const pdn = await (await fetch(`${t.server.url}/rounds/1/1.pdn`)).text();
    expect(pdn).toMatch(/\[Result "1-1"\]\n(?:.*\n)*?\[Advantage "White"\]/);
    expect(t.store.load()?.rounds[0].pairings[0].result).toEqual({
      kind: 'game',
      score: '1-1',
      advantage: 'white',
    });
  });

  it('a plain result goes to the table too; an advantage on a win is bad-param', async () => {
    await t.client.call('result', { board: 2, result: '0-2' });
    expect(t.store.load()?.rounds[0].pairings[1].result).toEqual({ kind: 'game', score: '0-2' });
    const bad = await t.client.call('result', { board: 2, result: '2-0', advantage: 'white' });
    expect(bad.param).toMatchObject({
      code: 'bad-param',
      message: 'param.advantage: only a draw (1-1) has an advantage',
    });
  });

  it('a board without a result (a proposal) leaves the table as it is', async () => {
    t.hub.publish([
      {
        board: 2,
        version: 98,
        t: 8,
        kind: 'result',
        result: '*',
        proposed: { result: '2-0', reason: '7.2: black cannot move' },
      },
    ]);
    expect(t.store.load()?.rounds[0].pairings[1].result).toEqual({ kind: 'game', score: '0-2' });
  });

  it("the board's 1-1 keeps the advantage the table has", async () => {
    t.hub.publish([{ board: 1, version: 99, t: 9, kind: 'result', result: '1-1' }]);
    expect(t.store.load()?.rounds[0].pairings[0].result).toEqual({
      kind: 'game',
      score: '1-1',
      advantage: 'white',
    });
  });
});
