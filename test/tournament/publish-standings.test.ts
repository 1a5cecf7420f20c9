// Published folders carry the standings beside the round's games, the same files the routes serve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentRoundFiles } from '../../daemon/publish/index.ts';
import { type RunningServer, startServer } from '../../daemon/server/index.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { fixtureEvent, type TempStore, tempStore } from './fixtures/helpers.ts';

let temp: TempStore;
let server: RunningServer;
const hub = new FakeHub(2, 7);

beforeAll(async () => {
  temp = tempStore('publish-standings');
  temp.store.save(fixtureEvent('swiss-2026.trf'));
  server = await startServer({ hub, port: 0, tournament: temp.store });
});

afterAll(async () => {
  await server.close();
  temp.close();
});

describe('published standings', () => {
  it('standings, standings.json, standings.csv and the pairing sheet of the round, equal to the routes', async () => {
    const files = currentRoundFiles(hub, undefined, temp.store)();
    const byPath = new Map(files.map((f) => [f.path, f.body]));
    for (const name of ['standings', 'standings.json', 'standings.csv', 'pairings']) {
      const served = await (await fetch(`${server.url}/rounds/7/${name}`)).text();
      expect(byPath.get(`rounds/7/${name}`)).toBe(served);
    }
    expect(JSON.parse(byPath.get('rounds/7/standings.json')!).groups[0].rows.length).toBeGreaterThan(0);
  });

  it('without a tournament, only the games are published', () => {
    const paths = currentRoundFiles(hub)().map((f) => f.path);
    expect(paths).toContain('rounds/7/games.pdn');
    expect(paths.some((p) => p.includes('standings'))).toBe(false);
  });
});
