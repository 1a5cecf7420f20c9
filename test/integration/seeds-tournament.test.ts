// The seeds' tournament end to end through a real daemon (`damlink run` with a `tournament:` block
// in its config, a CSV of players): a 7-round Swiss of two groups of odd size, paired by the
// pairing program (the stand-in written from bbpPairings' README, or the real one when
// BBP_PAIRINGS names it), a late entry in round 2, a withdrawal after round 3; every round's
// pairings apart per group, the names on the boards the moment the round starts, the standings
// per group after each round.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { GameSnapshot } from '../../src/game/types.ts';
import type { Event } from '../../src/tournament/index.ts';
import { FakeBoard } from '../daemon/fixtures/fake-board.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { FIXTURES } from '../tournament/fixtures/helpers.ts';
import { cleanUp, fetchText, onCleanup, startDaemon, tempDir } from './fixtures/helpers.ts';

const TOKEN = 'seeds-arbiter-token-1';
const PROGRAM =
  process.env.BBP_PAIRINGS ?? `${process.execPath} ${join(FIXTURES, 'fake-pairing-program.js')}`;
const BOARDS = 4;

afterEach(cleanUp);

const csvOf = (players: Array<{ name: string; group: string; rating: number }>) =>
  ['name,group,rating', ...players.map((p) => `"${p.name}",${p.group},${p.rating}`)].join('\n');

describe('the seeds’ tournament, end to end', () => {
  it('7 rounds, two odd groups paired apart, a late entry and a withdrawal, names at once, standings per group', async () => {
    const players = Array.from({ length: 20 }, (_, i) => ({
      name: `Speler${i + 1}, ${i % 2 === 0 ? 'S' : 'J'}`,
      group: i % 2 === 0 || i === 19 ? 'Seniors' : 'Juniors',
      rating: 1900 - 10 * i,
    }));
    const dir = tempDir('seeds');
    const csv = join(dir, 'players.csv');
    writeFileSync(csv, csvOf(players));
    const boards = Array.from({ length: BOARDS }, (_, i) => new FakeBoard(`SEED-${i + 1}`, 'line', []));
    for (const b of boards) {
      await b.listen();
      onCleanup(() => b.close());
    }
    const config = join(dir, 'damlink.yaml');
    writeFileSync(
      config,
      [
        `tokens: { arbiter: ${TOKEN} }`,
        'tournament:',
        `  file: ${csv}`,
        '  name: Clubkampioenschap',
        '  rounds: 7',
        '  groups: [Seniors, Juniors]',
        '  firstColour: lot',
        `  pairingProgram: ${JSON.stringify(PROGRAM)}`,
        'boards:',
        ...boards.map((b) => `  - source: tcp://127.0.0.1:${b.port}`),
      ].join('\n'),
    );
    const daemon = await startDaemon([], join(dir, 'data'), ['--config', config]);
    onCleanup(() => daemon.stop());
    const c = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1?token=${TOKEN}`);
    onCleanup(async () => c.ws.close());
    // An arbiter's pace, under the daemon's limit of calls a second per connection.
    const raw = c.call.bind(c);
    c.call = async (call, param, ms) => {
      await new Promise((r) => setTimeout(r, 30));
      return raw(call, param, ms);
    };
    const event = async (): Promise<Event> =>
      (await c.call('tournament', {}).catch(() => undefined))?.param?.event ??
      JSON.parse(await fetchText(`${daemon.url}/api/v1/tournament`)).event;

    for (let round = 1; round <= 7; round++) {
      if (round === 2) {
        // A late entry: the players imported again with one more junior.
        const late = [...players, { name: 'Laat, Lotte', group: 'Juniors', rating: 1500 }];
        expect((await c.call('players', { csv: csvOf(late) })).param).toMatchObject({
          ok: true,
          players: 21,
        });
      }
      if (round === 4)
        expect((await c.call('withdraw', { start: 3, round: 4 })).param).toMatchObject({ ok: true });
      const paired = await c.call('pair', { round }, 30_000);
      expect(paired.param, JSON.stringify(paired.param)).toMatchObject({ ok: true, round });
      if (round > 1) expect((await c.call('round', { round })).param).toMatchObject({ ok: true, round });
      const e = await event();
      const groupOf = new Map(e.players.map((p) => [p.start, p.group]));
      const nameOf = new Map(e.players.map((p) => [p.start, p.name]));
      const r = e.rounds.find((x) => x.number === round)!;
      // Apart per group, the seniors' tables first, a bye in each odd group.
      expect(r.pairings.every((p) => groupOf.get(p.white) === groupOf.get(p.black))).toBe(true);
      expect(groupOf.get(r.pairings[0].white)).toBe('Seniors');
      // A bye in each group that has an odd number playing: 11 seniors (10 once one withdrew), 9 juniors (10 with the late entry).
      const odd = ((11 - (round >= 4 ? 1 : 0)) % 2) + ((9 + (round >= 2 ? 1 : 0)) % 2);
      expect(r.byes.filter((b) => b.kind === 'pairing').length).toBe(odd);
      expect(
        r.pairings.some((p) => p.white === 21 || p.black === 21) || r.byes.some((b) => b.player === 21),
      ).toBe(round >= 2);
      if (round >= 4) {
        expect(r.pairings.some((p) => p.white === 3 || p.black === 3)).toBe(false);
        expect(r.byes).toContainEqual({ player: 3, kind: 'absent' });
      }
      // The boards carry the round's names at once.
      const games = (await c.call('games', { round })).param as GameSnapshot[];
      for (const p of r.pairings.filter((x) => x.table <= BOARDS)) {
        const g = games.find((x) => x.info.board === p.table)!;
        expect([g.info.white, g.info.black]).toEqual([nameOf.get(p.white), nameOf.get(p.black)]);
      }
      // Results by table, then the standings per group.
      for (const p of r.pairings)
        await c.call('table-result', {
          round,
          table: p.table,
          result: (p.white + round) % 3 === 0 ? '1-1' : '2-0',
        });
      const standings = JSON.parse(await fetchText(`${daemon.url}/rounds/${round}/standings.json`));
      expect(standings.groups.map((g: { group: string }) => g.group)).toEqual(['Seniors', 'Juniors']);
      expect(standings.groups[1].rows.length).toBe(round >= 2 ? 10 : 9);
    }
    const e = await event();
    expect(e.rounds).toHaveLength(7);
    expect(e).toMatchObject({ plannedRounds: 7, name: 'Clubkampioenschap' });
    expect(['white', 'black']).toContain(e.firstColour);
    // The TRF export has what bbpPairings was given: rounds planned, first colour.
    const trf = await fetchText(`${daemon.url}/api/v1/tournament.trf`);
    expect(trf).toMatch(/^142 7$/m);
    expect(trf).toMatch(/^152 [WB]$/m);
  }, 120_000);
});
