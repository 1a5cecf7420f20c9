// A round change while the daemon runs (a real process, simulated boards over tcp): the next
// round's pairings start on the boards, the last round's PDN stays served, and a restart goes on
// with the journal's round.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { ADMIN_TOKEN_FILE } from '../../daemon/server/admin-token.ts';
import {
  cleanBoards,
  cleanUp,
  fetchText,
  onCleanup,
  pdnMoves,
  startDaemon,
  tempDir,
  until,
} from './fixtures/helpers.ts';
import { roundRobinFile } from './fixtures/round-robin.ts';

const SPEED = 5;
afterEach(cleanUp);

/** Each game's [White, Black] tags, board order. */
const seats = (pdn: string): [string, string][] =>
  pdn
    .split(/\n(?=\[Event )/)
    .filter((g) => g.trim() !== '')
    .map((g) => [/\[White "([^"]*)"\]/.exec(g)?.[1] ?? '', /\[Black "([^"]*)"\]/.exec(g)?.[1] ?? '']);

describe('rounds at run time', () => {
  it('the next round starts on the boards; the last round stays served; a restart continues it', async () => {
    const dir = tempDir('rounds');
    const file = roundRobinFile(dir, 'Rondes', 2);
    const sim = await cleanBoards(3, { speed: SPEED, seed: 21, loop: true, maxPlies: 10, thinkMs: 1500 });
    const args = ['--time-scale', String(SPEED)];
    const addresses = sim.boards.map((b) => b.address);
    const daemon = await startDaemon(addresses, join(dir, 'data'), [...args, '--tournament', file]);
    onCleanup(() => daemon.stop());

    // Round 1: the Berger table's first round on boards 1–3, the games under way.
    const round1 = await until(
      async () => {
        const pdn = await fetchText(`${daemon.url}/rounds/1/games.pdn`);
        return pdnMoves(pdn).every((m) => m.length >= 2) ? pdn : undefined;
      },
      30_000,
      'round 1 games with moves',
    );
    expect(seats(round1)).toEqual([
      ['Sijbrands, Ton', 'Bos, Eva'],
      ['Clerc, Rob', 'Diallo, Ousmane'],
      ['Hoekstra, Tanja', 'Lemaire, Pierre'],
    ]);

    const client = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1`);
    onCleanup(async () => client.ws.close());
    // No token configured: the daemon made an admin token in its data directory.
    const token = readFileSync(join(dir, 'data', ADMIN_TOKEN_FILE), 'utf8').trim();
    await client.call('auth', { token });
    expect((await client.call('round', { round: 3 })).param).toMatchObject({
      code: 'failed',
      message: 'round 3 has no pairings',
    });
    const answer = await client.call('round', { round: 2 });
    expect(answer.param).toEqual({ ok: true, round: 2 });
    expect(JSON.parse(await fetchText(`${daemon.url}/health`)).round).toBe(2);

    // Round 1 is closed: what it served right after the change, it serves from then on.
    const closed = await fetchText(`${daemon.url}/rounds/1/games.pdn`);
    expect(seats(closed)).toEqual(seats(round1));
    expect(pdnMoves(closed).every((m, i) => m.length >= pdnMoves(round1)[i].length)).toBe(true);

    // Round 2: its pairings on the boards, and the boards' next games recorded in it.
    await until(
      async () => {
        const pdn = await fetchText(`${daemon.url}/rounds/2/games.pdn`);
        return pdnMoves(pdn).every((m) => m.length >= 2) ? pdn : undefined;
      },
      40_000,
      'round 2 games with moves',
    ).then((pdn) => {
      expect(seats(pdn)).toEqual([
        ['Bos, Eva', 'Lemaire, Pierre'],
        ['Diallo, Ousmane', 'Hoekstra, Tanja'],
        ['Sijbrands, Ton', 'Clerc, Rob'],
      ]);
      // Table 1 of round 2 is 6–4: their FMJD ids ride in the tags.
      expect(pdn).toContain('[WhiteFmjdId "16006"]\n[BlackFmjdId "16004"]');
    });
    expect(await fetchText(`${daemon.url}/rounds/1/games.pdn`)).toBe(closed);

    // A restart without --tournament or --round goes on with round 2.
    client.ws.close();
    await daemon.stop();
    const again = await startDaemon(addresses, join(dir, 'data'), args);
    onCleanup(() => again.stop());
    expect(JSON.parse(await fetchText(`${again.url}/health`)).round).toBe(2);
    expect(await fetchText(`${again.url}/rounds/1/games.pdn`)).toBe(closed);
  }, 120_000);
});
