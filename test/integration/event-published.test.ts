// The event, not the round: a real daemon (simulated boards over tcp) publishes to a real folder and,
// after a restart with a target added, to OpenSSH's sftp server. Three rounds are played; a result
// typed for round 1 during round 2 reaches round 1's published games and standings; the target added
// midway receives every round; afterwards every round's published files equal the served ones.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN_FILE } from '../../daemon/server/admin-token.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { startSshd } from './fixtures/file-servers.ts';
import {
  cleanBoards,
  cleanUp,
  fetchText,
  onCleanup,
  pdnMoves,
  startServing,
  tempDir,
  until,
} from './fixtures/helpers.ts';
import { roundRobinFile } from './fixtures/round-robin.ts';

afterEach(cleanUp);

const SPEED = 5;
/** What a round publishes with a tournament (the games' own files besides). */
const FILES = [
  'games.pdn',
  'games.json',
  'index.json',
  '1.pdn',
  'standings.csv',
  'standings.json',
  'pairings.html',
];

describe('every round of the event is published', () => {
  it('past rounds follow their results; a target added later gets every round; published = served', async () => {
    const dir = tempDir('event-published');
    // A tournament its file does not name: the config's event names it.
    const tournament = roundRobinFile(dir, '', 3);
    const folder = join(dir, 'www');
    const sim = await cleanBoards(3, { speed: SPEED, seed: 5, loop: true, maxPlies: 10, thinkMs: 1500 });
    const config = (targets: string[]) =>
      [
        'event: Open van de Lage Landen',
        `dataDir: ${join(dir, 'data')}`,
        'port: 0',
        `timeScale: ${SPEED}`,
        'tournament:',
        `  file: ${tournament}`,
        'boards:',
        ...sim.boards.map((b) => `  - { source: "${b.address}" }`),
        'publish:',
        '  coalesceMs: 100',
        '  targets:',
        ...targets.map((t) => `    - ${t}`),
        '',
      ].join('\n');
    const file = join(dir, 'hall.yaml');
    writeFileSync(file, config([`{ kind: directory, path: ${folder} }`]));
    const daemon = await startServing(['run', '--config', file]);
    onCleanup(() => daemon.stop());
    const token = readFileSync(join(dir, 'data', ADMIN_TOKEN_FILE), 'utf8').trim();
    const client = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1`);
    onCleanup(async () => client.ws.close());
    await client.call('auth', { token });

    const movesIn = (url: string, round: number) =>
      until(
        async () => {
          const pdn = await fetchText(`${url}/rounds/${round}/games.pdn`);
          return pdnMoves(pdn).every((m) => m.length >= 2) ? pdn : undefined;
        },
        40_000,
        `round ${round} games with moves`,
      );
    await movesIn(daemon.url, 1);
    // The tournament is named by the config's event, its file naming none.
    expect(await fetchText(`${daemon.url}/rounds/1/games.pdn`)).toContain(
      '[Event "Open van de Lage Landen"]',
    );
    expect((await client.call('round', { round: 2 })).param).toEqual({ ok: true, round: 2 });
    await movesIn(daemon.url, 2);

    // A result typed for round 1 while round 2 is played: round 1's published files follow it.
    const typed = await client.call('table-result', { round: 1, table: 2, result: '0-2' });
    expect(typed.param).toMatchObject({ ok: true });
    const published = (root: string, path: string) =>
      existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined;
    await until(
      async () => {
        const served = await fetchText(`${daemon.url}/rounds/1/standings.csv`);
        return published(folder, 'rounds/1/standings.csv') === served && served.includes('Diallo')
          ? true
          : undefined;
      },
      15_000,
      "round 1's standings republished after its result",
    );
    const table2 = published(folder, 'rounds/1/games.pdn')!
      .split(/\n(?=\[Event )/)
      .find((g) => g.includes('[White "Clerc, Rob"]'));
    expect(table2).toContain('[Result "0-2"]');

    // A restart with an SFTP target added: it receives every round, not only the current one.
    client.ws.close();
    await daemon.stop();
    const ssh = await startSshd();
    onCleanup(() => ssh.stop());
    const t = ssh.target();
    if (t.kind !== 'sftp') throw new Error('an SFTP target');
    writeFileSync(
      file,
      config([
        `{ kind: directory, path: ${folder} }`,
        `{ kind: sftp, host: "${t.host}", port: ${t.port}, user: "${t.user}", privateKey: "${t.privateKey}", dir: "${t.dir}", hostFingerprint: "${t.hostFingerprint}" }`,
      ]),
    );
    const again = await startServing(['run', '--config', file]);
    onCleanup(() => again.stop());
    const client2 = await TestClient.open(`${again.url.replace('http', 'ws')}/api/v1`);
    onCleanup(async () => client2.ws.close());
    await client2.call('auth', { token });
    expect((await client2.call('round', { round: 3 })).param).toEqual({ ok: true, round: 3 });
    await movesIn(again.url, 3);

    // Every round, in both targets, equals what the daemon serves (waiting out the last moves).
    for (const root of [folder, ssh.root]) {
      await until(
        async () => {
          for (const round of [1, 2, 3])
            for (const name of FILES) {
              const served = await fetchText(`${again.url}/rounds/${round}/${name}`);
              if (published(root, `rounds/${round}/${name}`) !== served) return undefined;
            }
          return published(root, 'rounds/index.json') === (await fetchText(`${again.url}/rounds/index.json`))
            ? true
            : undefined;
        },
        30_000,
        `every round published in ${root === folder ? 'the folder' : 'the SFTP target'}`,
      );
    }
    const index = JSON.parse(published(ssh.root, 'rounds/index.json')!);
    expect(index).toMatchObject({ event: 'Open van de Lage Landen', current: 3 });
    expect(index.rounds.map((r: { round: number }) => r.round)).toEqual([1, 2, 3]);
  }, 180_000);
});
