// A board source that cannot be opened (a serial path that does not exist) is said at once, where
// the organiser looks: the log names the board and says what to do, and the console's board row
// (the arbiter's `boards` call) carries the same words; spectators see only the state.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, onCleanup, startDaemon, tempDir, until } from '../../integration/fixtures/helpers.ts';
import { TestClient } from '../server/fixtures/ws-client.ts';

afterEach(cleanUp);

describe('damlink run with a board it cannot open', () => {
  it('says so within seconds, in the log and on the console, with what to do', async () => {
    const dataDir = tempDir('open-problem');
    const daemon = await startDaemon(['serial:/dev/damlink-no-such-board'], dataDir);
    onCleanup(() => daemon.stop());
    const said = await until(
      () =>
        daemon
          .stderr()
          .split('\n')
          .find((l) => l.includes('cannot open the board')),
      5000,
      'the log line',
    );
    expect(JSON.parse(said)).toMatchObject({
      board: 1,
      advice: 'plug the board in; `damlink ports` lists the devices there are',
    });
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const arbiter = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1?token=${token}`);
    onCleanup(async () => arbiter.close());
    const row = (await arbiter.call('boards')).param.boards[0];
    expect(row.state).toBe('connecting');
    expect(row.openProblem).toMatch(
      /^cannot open serial:\/dev\/damlink-no-such-board: .+ — plug the board in/,
    );
    const spectator = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1`);
    onCleanup(async () => spectator.close());
    expect((await spectator.call('boards')).param.boards[0].openProblem).toBeUndefined();
    // Said once, not at every retry.
    await new Promise((r) => setTimeout(r, 2500));
    expect(
      daemon
        .stderr()
        .split('\n')
        .filter((l) => l.includes('cannot open the board')),
    ).toHaveLength(1);
  });
});
