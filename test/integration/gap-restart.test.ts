// A daemon restart that misses 12 plies: the real daemon (journal on disk) is killed after ply 8,
// the board plays on, the daemon comes back and the board's dump is 12 or so plies on. Quiet plies
// that transpose: the tracker raises one `gap` alert with the candidate lines, records the first
// provisional and follows play live; the arbiter answers with the moves from the score sheet over the WebSocket API, and the served game
// is whole — the lost plies, then every move played since; the journal keeps the search with its
// lines, and a restart serves the same game.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonAwayAfterPly8, recoveredPlies } from './fixtures/daemon-away.ts';
import { cleanUp, type Daemon, fetchText, servedGames, until } from './fixtures/helpers.ts';

afterEach(cleanUp);

const TOKEN = 'arbiter-secret-gap-1';

describe('daemon restart missing a dozen plies (real daemon process, kill -9)', () => {
  it('the gap alert lists the lines, the first served provisional; decide with the score-sheet moves; the served game equals the truth', async () => {
    const away = await daemonAwayAfterPly8({ token: TOKEN, speed: 1 });
    const { sim, truth } = away;
    const board = sim.boards[0].board;
    // A restart takes a few seconds on a busy machine: the board plays one or two more meanwhile.
    await until(() => (board.stats.moves >= 19 ? true : undefined), 90_000, 'the board to play on');
    const daemon: Daemon = await away.start();
    const gap = await away.alert(daemon, 'gap', 30_000);
    const lost = gap.candidates[0].length;
    expect(gap.ply).toBe(9);
    expect(lost).toBeGreaterThanOrEqual(10);
    // The broadcast goes on while the alert is open: its first line, provisional, and play since.
    const before = await away.served(daemon);
    expect(before.slice(0, 8 + lost)).toEqual([...truth.slice(0, 8), ...gap.candidates[0]]);
    const games = JSON.parse(await fetchText(`${daemon.url}/api/v1/games`));
    const provisional = games[0].moves.flatMap((m: { ply: number; provisional?: true }) =>
      m.provisional ? [m.ply] : [],
    );
    expect(provisional).toEqual(Array.from({ length: lost }, (_, i) => 9 + i));
    const ws = await away.arbiter(daemon);
    const wrong = await away.scoreSheet(ws, gap.id, truth.slice(8, 10));
    expect(wrong.param.code).toBe('bad-param');
    const answer = await away.scoreSheet(ws, gap.id, truth.slice(8, 8 + lost));
    expect(answer.param).toEqual({ ok: true });
    await sim.done;
    const [moves] = await servedGames(daemon.url, [truth], 20_000, 'the whole game served', () =>
      daemon.stderr().slice(-2000),
    );
    expect(moves).toEqual(truth);
    const recovered = Array.from({ length: lost }, (_, i) => 9 + i);
    expect(await recoveredPlies(daemon.url)).toEqual(recovered);
    // The journal keeps the search with the lines it found, and a restart serves the same game.
    await daemon.stop();
    const db = new Database(join(away.dataDir, 'journal.sqlite'), { readonly: true });
    const kept = db.prepare('SELECT found FROM searches WHERE found IS NOT NULL').all() as {
      found: string;
    }[];
    db.close();
    expect(kept.map((r) => JSON.parse(r.found).lines.length)).toEqual([gap.candidates.length]);
    const again = await away.start();
    expect(await away.served(again)).toEqual(truth);
    expect(await recoveredPlies(again.url)).toEqual(recovered);
  }, 180_000);
});
