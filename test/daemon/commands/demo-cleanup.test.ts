// `npm start` (damlink run --demo) makes a data directory of its own for each demo and removes it
// when the demo stops (Ctrl-C): nothing is left in the temp folder. Its event is "Demo" (the page
// says "damlink" already).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spawnDamlink } from './fixtures/run-cli.ts';

describe('damlink run --demo', () => {
  it('removes its own data directory after Ctrl-C', async () => {
    const demo = spawnDamlink(['run', '--demo', '--demo-boards', '1', '--port', '0', '--log-level', 'warn']);
    const end = Date.now() + 20_000;
    let dir: string | undefined;
    while (!dir && Date.now() < end) {
      dir = /admin token in (\S+)\/admin-token/.exec(demo.stdout())?.[1];
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(dir, demo.stdout() + demo.stderr()).toMatch(/damlink-demo-/);
    expect(existsSync(dir!)).toBe(true);
    const url = /open (http:\/\/\S+?)\/ /.exec(demo.stdout())![1];
    const games = (await (await fetch(`${url}/api/v1/games`)).json()) as { info: { event?: string } }[];
    expect(games[0].info.event).toBe('Demo');
    demo.child.kill('SIGINT');
    expect(await demo.exited).toBe(0);
    expect(existsSync(dir!)).toBe(false);
  });
});
