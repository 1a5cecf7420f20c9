// A daemon away for 22 plies, more than any gap search looks for (20): the real daemon (journal on
// disk) is killed after ply 8 and comes back once the board has played the game to its end. Its
// search spends the dump's budget without a line, the board is unknown-position with the board it
// shows, and the arbiter records the moves from the score sheet over the WebSocket API: the served
// game is whole, the lost plies marked recovered, and it stays so across a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { daemonAwayAfterPly8, recoveredPlies } from './fixtures/daemon-away.ts';
import { cleanUp, type Daemon, fetchText, pdnMoves, servedGames } from './fixtures/helpers.ts';

afterEach(cleanUp);

const TOKEN = 'arbiter-secret-outage-1';

describe('a daemon away for 22 plies (real daemon process, kill -9)', () => {
  it('unknown-position with the board shown; the score-sheet moves make the served game whole', async () => {
    // The whole of a core for the searches, and a budget of 100,000 positions: the hopeless one
    // ends sooner, and so does its replay at the restart (the default's 2,000,000 take 16 s).
    const away = await daemonAwayAfterPly8({
      token: TOKEN,
      speed: 4,
      config: 'gapSearch: { share: 1, positions: 100000 }\n',
    });
    const { sim, truth } = away;
    await sim.done;
    expect(sim.boards[0].board.stats.moves).toBe(truth.length);
    let daemon: Daemon = await away.start();
    const alert = await away.alert(daemon, 'unknown-position', 90_000);
    expect(alert.ply).toBe(9);
    expect(typeof alert.boardShown).toBe('string');
    expect(await away.served(daemon)).toEqual(truth.slice(0, 8));
    const ws = await away.arbiter(daemon);
    const short = await away.scoreSheet(ws, alert.id, truth.slice(8, 29));
    expect(short.param).toEqual({
      code: 'bad-param',
      message: 'these moves do not lead to the position on the board',
    });
    const answer = await away.scoreSheet(ws, alert.id, truth.slice(8));
    expect(answer.param).toEqual({ ok: true });
    const [moves] = await servedGames(daemon.url, [truth], 20_000, 'the whole game served', () =>
      daemon.stderr().slice(-2000),
    );
    expect(moves).toEqual(truth);
    const lost = Array.from({ length: truth.length - 8 }, (_, i) => 9 + i);
    expect(await recoveredPlies(daemon.url)).toEqual(lost);
    // The journal replays to the same game.
    await daemon.stop();
    daemon = await away.start();
    expect(pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`))[0]).toEqual(truth);
    expect(await recoveredPlies(daemon.url)).toEqual(lost);
  }, 180_000);
});
