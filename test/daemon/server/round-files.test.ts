import { describe, expect, it } from 'vitest';
import { PdnCache, roundFile, roundFiles } from '../../../daemon/views/rounds.ts';
import { GameRecord } from '../../../src/game/index.ts';

const game = (board: number, white: string) =>
  new GameRecord({ info: { board, round: 3, variant: 'international', white } }).snapshot();

describe('round files', () => {
  const games = [game(7, 'Seven'), game(9, 'Nine')];
  const pdn = new PdnCache();

  it('game-<i>.PDN follows the position in the round, <board>.pdn the board number', () => {
    expect(roundFile(3, games, 'game-1.PDN', pdn)?.body).toContain('[White "Seven"]');
    expect(roundFile(3, games, 'game-2.PDN', pdn)?.body).toContain('[White "Nine"]');
    expect(roundFile(3, games, 'game-2.PDN', pdn)?.download).toBe('round-3-game-2.pdn');
    expect(roundFile(3, games, '9.pdn', pdn)?.download).toBe('round-3-board-9.pdn');
    expect(roundFile(3, games, 'game-3.PDN', pdn)).toBeUndefined();
    expect(roundFile(3, games, 'game-1.pdn', pdn)).toBeUndefined();
    expect(roundFile(3, games, '1.pdn', pdn)).toBeUndefined();
  });

  it('a published folder holds every route of the round under the same names', () => {
    const files = roundFiles(3, games, pdn);
    expect(files.map((f) => f.name)).toEqual([
      'games.pdn',
      'games.json',
      'index.json',
      '7.pdn',
      '9.pdn',
      'game-1.PDN',
      'game-2.PDN',
    ]);
    const json = JSON.parse(files[1].body);
    expect(json.games.map((g: { board: number }) => g.board)).toEqual([7, 9]);
    expect(files[0].body).toBe(`${files[3].body}\n${files[4].body}`);
  });
});
