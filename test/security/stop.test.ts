// SIGTERM ends the daemon within `shutdown.timeoutMs` whatever the MQTT broker does: a broker that
// stops answering during the stop (frozen, its connection still open) holds nothing up, and the
// journal is closed cleanly before the daemon exits.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../daemon/journal/index.ts';
import { startBroker } from '../daemon/server/fixtures/mosquitto.ts';
import {
  cleanBoards,
  cleanUp,
  onCleanup,
  startDaemon,
  tempDir,
  until,
} from '../integration/fixtures/helpers.ts';

afterEach(cleanUp);

describe('SIGTERM with a broker that stops answering', () => {
  it('exits within shutdown.timeoutMs, the journal closed and every move in it', async () => {
    const broker = await startBroker();
    onCleanup(() => broker.stop());
    const sim = await cleanBoards(2, { speed: 4, seed: 5, maxPlies: 10, thinkMs: 400 });
    const dataDir = tempDir('stop-broker');
    const config = join(dataDir, 'hall.yaml');
    writeFileSync(config, `mqtt:\n  url: ${broker.url}\nshutdown:\n  timeoutMs: 1500\n`);
    const daemon = await startDaemon(
      sim.boards.map((b) => b.address),
      dataDir,
      ['--config', config, '--time-scale', '4'],
    );
    onCleanup(() => daemon.stop('SIGKILL'));
    await sim.done;
    await until(
      async () => {
        const games = (await (await fetch(`${daemon.url}/api/v1/games`)).json()) as { moves: unknown[] }[];
        return games.every((g) => g.moves.length === 10) || undefined;
      },
      15_000,
      'every move served',
    );
    broker.freeze(true);
    const asked = Date.now();
    daemon.proc.kill('SIGTERM');
    const code = await Promise.race([
      daemon.exited,
      new Promise((r) => setTimeout(() => r('still running'), 8000)),
    ]);
    const took = Date.now() - asked;
    broker.freeze(false);
    expect(code).toBe(0);
    expect(took).toBeLessThan(6000);
    expect(daemon.stderr()).toMatch(/mqtt/);
    // Closed cleanly: a reader opens it, and every move is there.
    const journal = Journal.open(join(dataDir, 'journal.sqlite'), { readonly: true });
    try {
      expect(journal.roundGames(1) ?? []).toHaveLength(2);
    } finally {
      journal.close();
    }
  }, 60_000);
});
