// A rehearsal (`damlink run --config hall.yaml --demo`) is the real thing with simulated boards: the
// config's data directory, event, time control and publish targets stay, only its boards are
// replaced (as many as it lists); Ctrl-C and the same command continue where it was.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnDamlink } from './fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-rehearsal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = join(dir, 'hall.yaml');
const dataDir = join(dir, 'data');
const out = join(dir, 'www');
writeFileSync(
  config,
  [
    'event: Clubkampioenschap 2027',
    `dataDir: ${dataDir}`,
    'round: 2',
    'port: 0',
    'timeControl: 5400+30',
    'boards:',
    '  - { source: tcp://127.0.0.1:7101 }',
    '  - { source: tcp://127.0.0.1:7102 }',
    '  - { source: tcp://127.0.0.1:7103 }',
    'publish:',
    `  targets: [{ kind: directory, path: ${out} }]`,
    '',
  ].join('\n'),
);

async function rehearse(): Promise<{ url: string; stop(): Promise<number | null>; text: () => string }> {
  const run = spawnDamlink(['run', '--config', config, '--demo', '--speed', '20', '--log-level', 'warn']);
  const end = Date.now() + 20_000;
  let url: string | undefined;
  while (!url && Date.now() < end) {
    url = /open (http:\/\/\S+?)\/ /.exec(run.stdout())?.[1];
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(url, run.stdout() + run.stderr()).toBeDefined();
  return {
    url: url!,
    text: () => run.stdout() + run.stderr(),
    async stop() {
      run.child.kill('SIGINT');
      return run.exited;
    },
  };
}

interface Game {
  info: { event?: string; round: number; board: number };
  moves: unknown[];
  clock?: { white: number; black: number };
}

describe('damlink run --config FILE --demo (a rehearsal)', () => {
  it("keeps the config's data directory, event, round, time control and publishing, and a restart continues", async () => {
    const first = await rehearse();
    const games = (await (await fetch(`${first.url}/api/v1/games`)).json()) as Game[];
    // As many boards as the config lists, its event and its round.
    expect(games.map((g) => g.info.board)).toEqual([1, 2, 3]);
    expect(games.every((g) => g.info.event === 'Clubkampioenschap 2027' && g.info.round === 2)).toBe(true);
    expect(existsSync(join(dataDir, 'journal.sqlite'))).toBe(true);
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8');
    // The published round is the config's, named by its event.
    const published = join(out, 'rounds', '2', 'games.pdn');
    const end = Date.now() + 15_000;
    while (!existsSync(published) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(published, 'utf8')).toContain('[Event "Clubkampioenschap 2027"]');
    expect(readFileSync(published, 'utf8')).toContain('[TimeControl "5400+30"]');
    expect(await first.stop()).toBe(0);

    const again = await rehearse();
    const after = (await (await fetch(`${again.url}/api/v1/games`)).json()) as Game[];
    expect(after.every((g) => g.info.round === 2 && g.info.event === 'Clubkampioenschap 2027')).toBe(true);
    // The same data directory: the same admin token, not a new one.
    expect(readFileSync(join(dataDir, 'admin-token'), 'utf8')).toBe(token);
    expect(again.text()).not.toContain('damlink-demo-');
    // The start says what it does while it rebuilds the round, and how long it took.
    expect(again.text()).toMatch(/rebuilding round 2 from the journal \(\d[\d,]* entries\)/);
    // Stopped, the boards' images were kept: the start restores them instead of replaying the round.
    expect(again.text()).toMatch(/round 2 rebuilt in \d+\.\d s \([1-3] of 3 boards from their images\)/);
    // The simulated clocks keep the time control: 90 minutes, and at most 30 s more a move made
    // (the demo's default clock had 80 minutes and a minute a move). A reading may come before the
    // move it follows is settled on the board: one move more than recorded.
    const clockEnd = Date.now() + 15_000;
    let clocked: Game[] = [];
    while (clocked.length === 0 && Date.now() < clockEnd) {
      const now = (await (await fetch(`${again.url}/api/v1/games`)).json()) as Game[];
      clocked = now.filter((g) => g.clock && g.moves.length >= 4);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(clocked.length).toBeGreaterThan(0);
    for (const g of clocked) {
      const most = 5400_000 + 30_000 * (Math.ceil(g.moves.length / 2) + 1);
      expect(Math.max(g.clock!.white, g.clock!.black)).toBeLessThanOrEqual(most);
      expect(Math.max(g.clock!.white, g.clock!.black)).toBeGreaterThan(80 * 60_000 + 60_000);
    }
    expect(await again.stop()).toBe(0);
  }, 90_000);
});
