// `damlink run` stopped the moment it prints its address (a script, a service manager, a test that
// is done): the stop runs as at any other time. A signal that came before the daemon listened for
// it would end the process by the signal's default action, keeping nothing.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, startDaemon, tempDir } from '../../integration/fixtures/helpers.ts';

afterEach(removeTempDirs);

describe('damlink run stopped at once', () => {
  it('a SIGTERM as soon as the address is printed stops it as always: exit 0, the round kept', async () => {
    // Several starts: the signal races the lines printed after the address (with the listener set
    // after them, about one start in five ended by the signal itself).
    for (let i = 0; i < 12; i++) {
      const dir = tempDir('damlink-stop-at-once-');
      const daemon = await startDaemon(['tcp://127.0.0.1:1'], dir);
      daemon.proc.kill('SIGTERM');
      // Ended by the signal itself, the exit code would be null.
      expect(await daemon.exited).toBe(0);
      const journal = new Database(join(dir, 'journal.sqlite'), { readonly: true });
      const kept = journal.prepare('SELECT count(*) FROM round_games WHERE round = 1').pluck().get();
      journal.close();
      expect(kept).toBe(1);
    }
  });
});
