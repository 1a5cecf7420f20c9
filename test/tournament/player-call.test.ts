// The arbiter's `player` call: one player's record edited, checked as a tournament file's players
// are, answered once the journal is on the disk, and seen in the standings, the TRF export and the
// tournament the journal keeps after a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Journal } from '../../daemon/journal/index.ts';
import { type RunningServer, startServer } from '../../daemon/server/index.ts';
import { TournamentStore } from '../../daemon/tournament/store.ts';
import type { Event } from '../../src/tournament/index.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { fixtureEvent } from './fixtures/helpers.ts';

const TOKEN = 'player-call-secret';

/** The Swiss fixture in one named group, so the call can be seen to keep it. */
const swiss = (): Event => {
  const e = fixtureEvent('swiss-2026.trf');
  return { ...e, groups: ['Open'], players: e.players.map((p) => ({ ...p, group: 'Open' })) };
};

interface Daemon {
  journal: Journal;
  store: TournamentStore;
  server: RunningServer;
  client: TestClient;
  stop(): Promise<void>;
}

/** A server on the journal file in `dir`, its store syncing through `sync` (the journal's by default). */
async function daemon(dir: string, sync?: () => Promise<void>, publicPersonalData = false): Promise<Daemon> {
  const journal = Journal.open(join(dir, 'journal.sqlite'));
  const store = TournamentStore.open(journal.database, sync ?? (() => journal.sync()));
  const server = await startServer({
    hub: new FakeHub(4, 7),
    port: 0,
    tokens: { arbiter: TOKEN },
    tournament: store,
    publicPersonalData,
  });
  const client = await TestClient.open(server.wsUrl);
  return {
    journal,
    store,
    server,
    client,
    async stop() {
      client.ws.close();
      await server.close();
      journal.close();
    },
  };
}

const edit = (d: Daemon, param: Record<string, unknown>) =>
  d.client.call('player', { token: TOKEN, ...param }).then((m) => m.param);

let dir: string;
let d: Daemon;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'damlink-player-call-'));
  d = await daemon(dir);
  d.store.save(swiss());
});

afterAll(async () => {
  await d?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const NEW_RECORD = {
  start: 1,
  name: 'Boomstra, Roel J.',
  fmjdId: '16241',
  rating: 1450,
  federation: 'BEL',
  title: 'GMI',
  birth: '1991/05/13',
  sex: 'm',
};

describe('the player call', () => {
  it('is the arbiter’s: without the token nothing changes', async () => {
    const r = await d.client.call('player', { start: 1, name: 'Nobody, Else' });
    expect(r.param.code).toBe('unauthorized');
    expect(d.store.load()?.players[0].name).toBe('Boomstra, Roel');
  });

  it('refuses bad fields, each located in the call', async () => {
    expect(await edit(d, { start: 1, name: 'Boomstra, Roel', rating: 'high' })).toEqual({
      code: 'bad-param',
      message: 'param.rating: must be a whole number from 0',
    });
    expect(await edit(d, { start: 1, name: '  ' })).toEqual({
      code: 'bad-param',
      message: 'param.name: must not be empty',
    });
    expect(await edit(d, { start: 1, name: 'Boomstra, Roel', club: 7, rating: -3 })).toEqual({
      code: 'bad-param',
      message: 'param.rating: must be a whole number from 0; param.club: must be text',
    });
    expect((await edit(d, { start: 1, name: 'Boomstra,\nRoel' })).message).toBe(
      'param.name: control characters are not allowed',
    );
    expect((await edit(d, { start: 1, name: 'Boomstra, Roel', fed: 'BEL' })).message).toMatch(
      /^param\.fed: not a player field here \(name, fmjdId, rating/,
    );
    expect((await edit(d, { start: 1, name: 'Boomstra, Roel', group: 'B' })).message).toMatch(
      /^param\.group: not a player field here/,
    );
    expect((await edit(d, { start: 0, name: 'Boomstra, Roel' })).message).toMatch(/^param\.start: /);
    expect(await edit(d, { start: 42, name: 'Nobody, Else' })).toEqual({
      code: 'not-found',
      message: 'no player has starting rank 42',
    });
    expect(d.store.load()).toEqual(swiss());
  });

  it('replaces the record (a field left out is cleared, the group stays); standings and TRF show it', async () => {
    expect(await edit(d, { ...NEW_RECORD, club: 'DC Utrecht' })).toEqual({
      ok: true,
      player: { ...NEW_RECORD, club: 'DC Utrecht', group: 'Open' },
    });
    // The club left out this time: cleared.
    expect(await edit(d, NEW_RECORD)).toEqual({ ok: true, player: { ...NEW_RECORD, group: 'Open' } });
    // Anyone may read the tournament (CORS *): without the players' birth dates and sex.
    const event = (await (await fetch(`${d.server.url}/api/v1/tournament`)).json()) as { event: Event };
    const { birth: _b, sex: _s, ...publicRecord } = NEW_RECORD;
    expect(event.event.players[0]).toEqual({ ...publicRecord, group: 'Open' });
    expect(event.event.players.every((p) => p.birth === undefined && p.sex === undefined)).toBe(true);
    // The arbiter's call has the whole record; a spectator's is refused.
    const whole = await d.client.call('tournament', { token: TOKEN });
    expect((whole.param as Event).players[0]).toEqual({ ...NEW_RECORD, group: 'Open' });
    expect((whole.param as Event).players.slice(1)).toEqual(swiss().players.slice(1));
    const spectator = await TestClient.open(d.server.wsUrl);
    expect((await spectator.call('tournament', {})).param.code).toBe('unauthorized');
    spectator.close();

    const standings = (await (await fetch(`${d.server.url}/rounds/6/standings.json`)).json()) as {
      groups: { rows: { start: number; name: string; group: string }[] }[];
    };
    const rows = standings.groups[0].rows;
    expect(rows.find((r) => r.start === 1)).toMatchObject({ name: 'Boomstra, Roel J.', group: 'Open' });

    const trf = await (await fetch(`${d.server.url}/api/v1/tournament.trf`)).text();
    const line = trf.split('\n').find((l) => l.startsWith('001    1 '));
    expect(line?.slice(0, 79)).toBe(
      '001    1  GMI Boomstra, Roel J.                 1450 BEL       16241           ',
    );
  });

  it('with tournament.publicPersonalData the public TRF and JSON carry birth dates and sex', async () => {
    const open = await daemon(dir, undefined, true);
    try {
      const trf = await (await fetch(`${open.server.url}/api/v1/tournament.trf`)).text();
      const line = trf.split('\n').find((l) => l.startsWith('001    1 '));
      expect(line?.slice(0, 79)).toBe(
        '001    1 mGMI Boomstra, Roel J.                 1450 BEL       16241 1991/05/13',
      );
      const event = (await (await fetch(`${open.server.url}/api/v1/tournament`)).json()) as { event: Event };
      expect(event.event.players[0]).toMatchObject({ birth: '1991/05/13', sex: 'm' });
    } finally {
      await open.stop();
    }
  });

  it('is kept across a restart', async () => {
    await d.stop();
    d = await daemon(dir);
    expect(d.store.load()?.players[0]).toEqual({ ...NEW_RECORD, group: 'Open' });
    const trf = await (await fetch(`${d.server.url}/api/v1/tournament.trf`)).text();
    expect(trf).toContain('Boomstra, Roel J.                 1450 BEL');
  });
});

describe('the tournament calls and the disk', () => {
  let other: string;
  let gated: Daemon;
  let release: (() => void) | undefined;
  let failure: Error | undefined;

  beforeAll(async () => {
    other = mkdtempSync(join(tmpdir(), 'damlink-player-sync-'));
    gated = await daemon(other, () => {
      if (failure) return Promise.reject(failure);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    gated.store.save(swiss());
  });

  afterAll(async () => {
    release?.();
    await gated?.stop();
    rmSync(other, { recursive: true, force: true });
  });

  it('an edit is answered only once the journal is synced', async () => {
    let answered = false;
    const answer = edit(gated, NEW_RECORD).then((a) => {
      answered = true;
      return a;
    });
    await expect.poll(() => release).toBeDefined();
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false);
    release!();
    expect((await answer).ok).toBe(true);
  });

  it('a sync that fails is journal-unavailable, and says the change was written', async () => {
    failure = new Error('EIO: i/o error, fdatasync');
    expect(await edit(gated, { start: 2, name: 'Kosse, Hein' })).toEqual({
      code: 'journal-unavailable',
      message: 'written, but not synced to disk (EIO: i/o error, fdatasync)',
    });
    expect(
      await gated.client.call('table-result', { round: 7, table: 1, result: '2-0', token: TOKEN }),
    ).toMatchObject({ param: { code: 'journal-unavailable' } });
  });
});
