// Swiss rounds from a pairing program: its output read, the program run on the tournament's TRF,
// and the arbiter's `pair` call.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventBefore, pairRound, withPairingProgram } from '../../daemon/tournament/pairing-program.ts';
import { readPairingOutput } from '../../src/tournament/index.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { closeServed, serveHub } from '../daemon/server/fixtures/served-hub.ts';
import type { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { FIXTURES, fixtureEvent, type TempStore, tempStore } from './fixtures/helpers.ts';

const ARBITER_TOKEN = 'tournament-arbiter-token-1';

const PROGRAM = `${process.execPath} ${join(FIXTURES, 'fake-pairing-program.js')}`;
const players = [1, 2, 3, 4, 5].map((start) => ({ start, name: `P${start}` }));

describe('pairing program output', () => {
  it('pairs in table order, 0 for the bye', () => {
    expect(readPairingOutput('3\n4 1\n2 5\n3 0\n', players, 2)).toEqual({
      ok: true,
      value: {
        number: 2,
        pairings: [
          { table: 1, white: 4, black: 1 },
          { table: 2, white: 2, black: 5 },
        ],
        byes: [{ player: 3, kind: 'pairing' }],
      },
    });
  });

  it('every bad line by its number', () => {
    const r = readPairingOutput('4\n4 1\n2 9\n1 3\nx y\n', players, 2, 'pairs.txt');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error.map((e) => [e.line, e.message])).toEqual([
        [3, 'no player has starting rank 9'],
        [4, 'player 1 is paired twice'],
        [5, '"x y" is not two starting ranks'],
      ]);
    expect(readPairingOutput('pairs\n', players, 2)).toMatchObject({ ok: false, error: [{ line: 1 }] });
  });
});

describe('the pairing program', () => {
  it('sees the rounds before the one to pair, with the rounds planned', () => {
    const e = eventBefore(fixtureEvent('swiss-2026.trf'), 5);
    expect([e.rounds.map((r) => r.number), e.plannedRounds]).toEqual([[1, 2, 3, 4], 7]);
    expect(eventBefore(fixtureEvent('swiss-2026.trf'), 8).plannedRounds).toBe(8);
  });

  it('pairs round 8 of the Swiss from the TRF damlink writes', async () => {
    const r = await pairRound(
      { command: `${PROGRAM} --dutch {in} -p {out}` },
      fixtureEvent('swiss-2026.trf'),
      8,
    );
    // By points after round 7, no one twice against the same opponent (1 met 2 already). The real
    // bbpPairings 6.0.0 pairs the same players on this file (it gives table 3's white to 6).
    expect(r).toEqual({
      ok: true,
      value: {
        number: 8,
        pairings: [
          { table: 1, white: 1, black: 8 },
          { table: 2, white: 2, black: 7 },
          { table: 3, white: 3, black: 6 },
          { table: 4, white: 4, black: 5 },
        ],
        byes: [{ player: 9, kind: 'pairing' }],
      },
    });
  });

  it('a program that fails: its last word on stderr; one that cannot start: why', async () => {
    const e = { ...fixtureEvent('swiss-2026.trf') };
    const r = await pairRound({ command: `${PROGRAM} --burstein {in} -p {out}` }, e, 8);
    expect(r).toMatchObject({
      ok: false,
      error: [{ message: expect.stringContaining('usage: fake-pairing-program.js') }],
    });
    const missing = await pairRound({ command: '/nonexistent/bbpPairings' }, e, 8);
    expect(missing).toMatchObject({
      ok: false,
      error: [{ message: expect.stringContaining('cannot run /nonexistent/bbpPairings: no such program') }],
    });
  });
});

describe('the pair call', () => {
  let temp: TempStore;
  let client: TestClient;

  beforeAll(async () => {
    temp = tempStore('pair-call');
    temp.store.save(fixtureEvent('swiss-2026.trf'));
    const access = withPairingProgram(temp.store, { command: `${PROGRAM} --dutch {in} -p {out}` });
    const served = await serveHub(new FakeHub(4, 7), { arbiter: ARBITER_TOKEN }, { tournament: access });
    client = await served.open();
    await client.call('auth', { token: ARBITER_TOKEN });
  });

  afterAll(async () => {
    await closeServed();
    temp.close();
  });

  it('pairs the next round and keeps it; a round with results is not paired again', async () => {
    expect((await client.call('pair', { round: 8 })).param).toEqual({
      ok: true,
      round: 8,
      pairings: 4,
      byes: 1,
    });
    expect(temp.store.load()?.rounds[7].pairings[0]).toEqual({ table: 1, white: 1, black: 8 });
    expect((await client.call('pair', { round: 7 })).param).toEqual({
      code: 'failed',
      message: 'round 7 has results already',
    });
  });
});
