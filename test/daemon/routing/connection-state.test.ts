// A board's connection state as the daemon decides it and as its game records it. The record takes
// a state when its batch is written (a turn later), so a board that goes silent and speaks again
// before that must still be recorded as it is: active.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BoardSetup } from '../../../daemon/config/index.ts';
import { HoldUpClock } from '../../../daemon/hold-up-clock.ts';
import { GroupCommit } from '../../../daemon/ingest/group-commit.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import { liveBoard } from '../../../daemon/live-board.ts';
import { silentLogger } from '../../../daemon/log.ts';
import { ConnectionStates } from '../../../daemon/routing/connection-state.ts';
import type { BoardConnection } from '../../../daemon/transport/index.ts';
import { BoardGame } from '../../../src/game/board-game.ts';
import { createTracker } from '../../../src/tracker/index.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function hall() {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-states-'));
  dirs.push(dir);
  const journal = Journal.open(join(dir, 'journal.sqlite'));
  const commits = new GroupCommit(journal, 1, silentLogger());
  const game = new BoardGame({ info: { board: 1, round: 1, variant: 'international' }, createTracker });
  const board = liveBoard({ board: 1 } as BoardSetup, game);
  const from = {} as BoardConnection;
  board.feeder = from;
  const states = new ConnectionStates(commits, new HoldUpClock(() => 1000, 1));
  const recorded = () => board.game.record.snapshot();
  return { journal, commits, board, from, states, recorded };
}

describe('connection states', () => {
  it('silent and active again within one batch: recorded active, and journaled in that order', () => {
    const { journal, commits, board, from, states, recorded } = hall();
    states.set(board, 'active', from, 'B1');
    commits.flush();
    expect(recorded()).toMatchObject({ state: 'active', serial: 'B1' });
    states.set(board, 'silent', from);
    expect(commits.connection(board).state).toBe('silent');
    expect(recorded().state).toBe('active');
    states.set(board, 'active', from);
    commits.flush();
    expect(commits.connection(board)).toEqual({ state: 'active', serial: 'B1' });
    expect(recorded().state).toBe('active');
    const kinds: string[] = [];
    journal.forEachRoundInput(1, (_b, input) => {
      if (input.kind === 'state') kinds.push(input.state);
    });
    expect(kinds).toEqual(['active', 'silent', 'active']);
    journal.close();
  });

  it('the same state again is no input; a new serial is', () => {
    const { journal, commits, board, from, states } = hall();
    states.set(board, 'active', from, 'B1');
    states.set(board, 'active', from, 'B1');
    states.set(board, 'active', from);
    states.set(board, 'active', from, 'B2');
    commits.flush();
    const serials: (string | undefined)[] = [];
    journal.forEachRoundInput(1, (_b, input) => {
      if (input.kind === 'state') serials.push(input.serial);
    });
    expect(serials).toEqual(['B1', 'B2']);
    expect(board.game.record.snapshot().serial).toBe('B2');
    journal.close();
  });

  it('a connection that no longer feeds the board does not speak for it', () => {
    const { journal, commits, board, states, recorded } = hall();
    states.set(board, 'lost', {} as BoardConnection);
    commits.flush();
    expect(recorded().state).toBe('connecting');
    journal.close();
  });
});
