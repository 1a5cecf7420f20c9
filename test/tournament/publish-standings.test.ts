// Published folders carry the standings beside the round's games, the same files the routes serve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventFiles } from '../../daemon/publish/index.ts';
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
  it('standings.html, standings.json, standings.csv and pairings.html of the round, equal to the routes', async () => {
    const files = new EventFiles(hub, temp.store).files();
    const byPath = new Map(files.map((f) => [f.path, f.body]));
    // Every published name has the extension a web server serves it by.
    expect(
      [...byPath.keys()].filter((p) => p.includes('standings') || p.includes('pairings')).sort(),
    ).toEqual([
      'rounds/7/pairings.html',
      'rounds/7/standings.csv',
      'rounds/7/standings.html',
      'rounds/7/standings.json',
    ]);
    for (const name of ['standings.html', 'standings.json', 'standings.csv', 'pairings.html']) {
      const served = await (await fetch(`${server.url}/rounds/7/${name}`)).text();
      expect(byPath.get(`rounds/7/${name}`)).toBe(served);
    }
    expect(JSON.parse(byPath.get('rounds/7/standings.json')!).groups[0].rows.length).toBeGreaterThan(0);
  });

  it('without a tournament, only the games are published', () => {
    const paths = new EventFiles(hub).files().map((f) => f.path);
    expect(paths).toContain('rounds/7/games.pdn');
    expect(paths.some((p) => p.includes('standings'))).toBe(false);
  });
});
