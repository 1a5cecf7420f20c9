// A demo round polled the way lidraughts polls a broadcast (test/fixtures/lidraughts.ts): simulated
// boards play two games each with irregularities injected, show each result with the kings in the
// centre, and set the pieces up again; an arbiter confirms every result shown. Every poll (one a
// game second), every game replays from its start or its FEN, no game changes place, and a game
// with its result never changes again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePdn } from '../../src/engine/index.ts';
import type { GameSnapshot } from '../../src/game/types.ts';
import { startSimulation } from '../../simulator/index.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { readRound } from '../fixtures/lidraughts.ts';
import { cleanUp, fetchText, onCleanup, startDaemon, tempDir } from './fixtures/helpers.ts';

const SPEED = 5;
const TOKEN = 'broadcast-arbiter-token-1';
const BOARDS = 4;

afterEach(cleanUp);

describe('the broadcast as lidraughts polls it', () => {
  it('a demo round with irregularities, results and resets: every poll replays, finished games stay', async () => {
    const sim = await startSimulation({
      boards: BOARDS,
      transport: 'tcp',
      speed: SPEED,
      seed: 32,
      gamesPerBoard: 2,
      game: {
        noise: 'none',
        maxPlies: 30,
        thinkMs: 1500,
        resultGesture: true,
        inject: ['5.4.1', '5.4.2', '5.4.5', '5.4.8', '5.4.9'],
        injectProbability: 0.2,
        correctProbability: 0,
      },
    });
    onCleanup(() => sim.stop());
    const dir = tempDir('it-broadcast');
    const config = join(dir, 'damlink.yaml');
    writeFileSync(config, [`tokens: { arbiter: ${TOKEN} }`, 'event: Demo', 'round: 3'].join('\n'));
    const daemon = await startDaemon(
      sim.boards.map((b) => b.address),
      join(dir, 'data'),
      ['--config', config, '--time-scale', String(SPEED)],
    );
    onCleanup(() => daemon.stop());
    const arbiter = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1?token=${TOKEN}`);
    onCleanup(async () => arbiter.ws.close());

    let finished = false;
    void sim.done.then(() => {
      finished = true;
    });
    /** Per place in the file: its static tags (lidraughts' match), and its text once it has a result. */
    const places: string[] = [];
    const frozen = new Map<number, string>();
    let polls = 0;
    let afterDone = 0;
    while (afterDone < 10) {
      const text = await fetchText(`${daemon.url}/rounds/3/games.pdn`);
      polls++;
      const games = readRound(text);
      const texts = text.replace(/\r/g, '').split(/\n\n(?=\[)/);
      games.forEach((g, i) => {
        expect(g.stoppedAt, `poll ${polls}, game ${i + 1} stops\n${texts[i]}`).toBeUndefined();
        expect(g.restartedAt).toBeUndefined();
        if (g.decided) expect(g.result).toBe(g.decided);
        const key = ['White', 'Black', 'Round', 'Event', 'Site'].map((k) => g.tags[k]).join('|');
        if (places[i] === undefined) places[i] = key;
        expect(key, `game ${i + 1} changed place`).toBe(places[i]);
        if (frozen.has(i)) expect(texts[i].trim(), `finished game ${i + 1} changed`).toBe(frozen.get(i));
        else if (g.result !== '*' && !g.decided) frozen.set(i, texts[i].trim());
      });
      expect(games.length).toBeGreaterThanOrEqual(places.length);
      // The arbiter confirms every result a board shows.
      const snapshots = (await arbiter.call('games', {})).param as GameSnapshot[];
      for (const s of snapshots) {
        const table = s.tableGame ?? s;
        if (table.result === '*' && table.proposedResult)
          await arbiter.call('result', { board: s.info.board, result: 'proposed' });
      }
      if (finished) afterDone++;
      await new Promise((r) => setTimeout(r, 1000 / SPEED));
    }
    const finalText = await fetchText(`${daemon.url}/rounds/3/games.pdn`);
    const final = readRound(finalText);
    // damlink's own reader (`damlink pdn check`) reads it without a word too.
    expect(parsePdn(finalText).errors).toEqual([]);
    // Every board's slot holds its first game, whole as played up to its first irregularity, with
    // the result its board showed.
    for (const b of sim.boards) {
      const truth = b.board.games[0];
      const slot = final[b.index];
      expect(truth.moves.map((m) => m.pdn).slice(0, slot.moves.length)).toEqual(slot.moves);
      if (truth.injected.length === 0) expect(slot.moves).toHaveLength(truth.moves.length);
      expect(slot.result).toBe(truth.result);
    }
    const injected = sim.boards.flatMap((b) => b.board.games[0].injected);
    expect(injected.length).toBeGreaterThan(0);
    // The irregularities that stood go on as games of their own, after the boards.
    expect(final.length).toBeGreaterThan(BOARDS);
    expect(final.slice(BOARDS).every((g) => g.tags.FEN && /continued from move \d+/.test(g.tags.Round))).toBe(
      true,
    );
    expect(polls).toBeGreaterThan(20);
  }, 180_000);
});
