// Boards' images in the journal (daemon/images.ts): a start restores each board's image and replays
// only the entries after it — the same games, versions and resume points as a replay of the whole
// round. An image of other code or other rules, one that cannot be read, or none (a board searching
// a gap) leaves its board to the replay from the round's start.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BoardSetup } from '../../daemon/config/index.ts';
import { BoardImages, EVERY_MS, imageKey } from '../../daemon/images.ts';
import type { GroupCommit } from '../../daemon/ingest/group-commit.ts';
import { type AppendRequest, Journal } from '../../daemon/journal/index.ts';
import { type LiveBoard, liveBoard, rebuildLive } from '../../daemon/live-board.ts';
import { silentLogger } from '../../daemon/log.ts';
import { newBoardGame, type ReplaySettings } from '../../src/game/board-game.ts';
import { createTracker } from '../../src/tracker/index.ts';
import { simulateGame } from '../../simulator/index.ts';
import { gapOf, reconnected } from '../src/tracker/fixtures/gap-lines.ts';

const SETTINGS: ReplaySettings = { variant: 'international', createTracker, drawProfile: 'fmjd' };
const BOARDS = [1, 2, 3];

function open(): Journal {
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'damlink-images-')), 'journal.sqlite'));
  journal.setRoundSettings(1, { variant: 'international', drawProfile: 'fmjd' });
  return journal;
}

/** Each board's game as the daemon journals it (its events, a hello first), split in two halves. */
function halves(): [AppendRequest[], AppendRequest[]] {
  const first: AppendRequest[] = [];
  const second: AppendRequest[] = [];
  for (const board of BOARDS) {
    const events = simulateGame({ seed: board * 3, noise: 'realistic', maxPlies: 60 }).events;
    const serial = `SIM-${board}`;
    const rows: AppendRequest[] = [
      { round: 1, board, t: 0, serial, input: { kind: 'state', state: 'active', serial } },
      ...events.map((event) => ({
        round: 1,
        board,
        t: event.t,
        serial,
        input: { kind: 'event' as const, event },
      })),
    ];
    first.push(...rows.slice(0, rows.length / 2));
    second.push(...rows.slice(rows.length / 2));
  }
  const byTime = (a: AppendRequest, b: AppendRequest) => a.t - b.t;
  return [first.sort(byTime), second.sort(byTime)];
}

function boards(settings = SETTINGS): Map<number, LiveBoard> {
  return new Map(BOARDS.map((b) => [b, liveBoard({ board: b } as BoardSetup, newBoardGame(settings, 1, b))]));
}

/** The round rebuilt as a start does: with `images` (restored first), or replayed whole. */
function rebuilt(journal: Journal, images?: BoardImages, settings = SETTINGS) {
  const live = boards(settings);
  const last = rebuildLive(journal, 1, live, () => {}, images);
  images?.rebuilt(live.values());
  return { live, last };
}

const served = (live: Map<number, LiveBoard>) =>
  [...live.values()].map((b) => ({
    snapshot: b.game.record.snapshot(),
    version: b.game.record.currentVersion,
    state: b.game.tracker.state,
    last: b.time.last,
    gap: b.time.gap,
  }));

describe('board images (daemon/images.ts)', () => {
  it('a start restores the images and replays only what came after: the same games as a whole replay', () => {
    const journal = open();
    const [first, second] = halves();
    journal.appendMany(first);
    const images = new BoardImages(journal, 1, SETTINGS, silentLogger());
    const before = rebuilt(journal);
    images.keepAll(before.live.values());
    expect(journal.images(1, imageKey(SETTINGS)).size).toBe(BOARDS.length);
    // The daemon went on after the images (a crash later): the entries after them are replayed.
    journal.appendMany(second);
    const whole = rebuilt(journal);
    let replayed = 0;
    const counting = new BoardImages(journal, 1, SETTINGS, silentLogger());
    const restore = counting.restore.bind(counting);
    counting.restore = (live) => {
      const through = restore(live);
      for (const b of live.values()) {
        const apply = b.game.apply.bind(b.game);
        b.game.apply = (input, t) => {
          replayed++;
          return apply(input, t);
        };
      }
      return through;
    };
    const fromImages = rebuilt(journal, counting);
    expect(served(fromImages.live)).toEqual(served(whole.live));
    expect(fromImages.last).toBe(whole.last);
    expect(replayed).toBe(second.length);
    // A start of another round drops this round's images.
    new BoardImages(journal, 2, SETTINGS, silentLogger());
    expect(journal.images(1, imageKey(SETTINGS)).size).toBe(0);
  });

  it('after a stop (images of the last entry) nothing is replayed, and the games are the same', () => {
    const journal = open();
    const [first, second] = halves();
    journal.appendMany([...first, ...second]);
    const whole = rebuilt(journal);
    new BoardImages(journal, 1, SETTINGS, silentLogger()).keepAll(whole.live.values());
    const images = new BoardImages(journal, 1, SETTINGS, silentLogger());
    const again = rebuilt(journal, images);
    expect(images.restored).toBe(BOARDS.length);
    expect(served(again.live)).toEqual(served(whole.live));
    expect(again.last).toBe(whole.last);
  });

  it('images of other rules, or that cannot be read, are not used: their boards are replayed whole', () => {
    const journal = open();
    const [first, second] = halves();
    journal.appendMany(first);
    const before = rebuilt(journal);
    new BoardImages(journal, 1, SETTINGS, silentLogger()).keepAll(before.live.values());
    journal.appendMany(second);
    const whole = rebuilt(journal);
    // Other rules: another key, no image found.
    const other: ReplaySettings = { ...SETTINGS, autoResult: true };
    expect(imageKey(other)).not.toBe(imageKey(SETTINGS));
    expect(journal.images(1, imageKey(other)).size).toBe(0);
    // A damaged image: that board is replayed whole, the others restored.
    const key = imageKey(SETTINGS);
    const kept = journal.images(1, key).get(2)!;
    journal.keepImages(1, [{ ...kept, image: new Uint8Array([1, 2, 3]) }]);
    const warnings: unknown[] = [];
    const log = silentLogger();
    log.warn = ((o: unknown) => warnings.push(o)) as typeof log.warn;
    const images = new BoardImages(journal, 1, SETTINGS, log);
    const live = boards();
    const through = images.restore(live);
    expect([...through.keys()].sort()).toEqual([1, 3]);
    expect(warnings).toHaveLength(1);
    expect(served(rebuilt(journal, new BoardImages(journal, 1, SETTINGS, log)).live)).toEqual(
      served(whole.live),
    );
  });

  it('a board searching a gap has no image; the others have, and that board is replayed', () => {
    const journal = open();
    const gap = gapOf(4, 12, false)!;
    const settings: ReplaySettings = {
      ...SETTINGS,
      createTracker: (o) => createTracker({ ...o, start: gap.from }),
    };
    const rows = reconnected(gap).events.map((event) => ({
      round: 1,
      board: 1,
      t: event.t,
      serial: 'B1',
      input: { kind: 'event' as const, event },
    }));
    journal.appendMany(rows);
    journal.appendMany(
      [1, 2, 3, 4, 5].map((i) => ({
        ...rows[0],
        t: rows.at(-1)!.t + i * 100,
        input: {
          kind: 'event' as const,
          event: { t: rows.at(-1)!.t + i * 100, type: 'tick' as const, steps: 1 },
        },
      })),
    );
    const whole = rebuilt(journal, undefined, settings);
    expect(whole.live.get(1)!.game.tracker.searching).toBe(true);
    new BoardImages(journal, 1, settings, silentLogger()).keepAll(whole.live.values());
    expect([...journal.images(1, imageKey(settings)).keys()].sort()).toEqual([2, 3]);
    const again = rebuilt(journal, new BoardImages(journal, 1, settings, silentLogger()), settings);
    expect(served(again.live)).toEqual(served(whole.live));
  });

  it('while the round is played: the boards the start replayed first, then one at a time once its image is EVERY_MS old and its game changed', () => {
    const journal = open();
    const [first] = halves();
    journal.appendMany(first);
    let now = 0;
    const images = new BoardImages(journal, 1, SETTINGS, silentLogger(), imageKey(SETTINGS), () => now);
    // A start on the journal alone: every board replayed from the round's start.
    const { live } = rebuilt(journal, images);
    expect(images.restored).toBe(0);
    let caughtUp = false;
    const commits = { caughtUp: () => caughtUp } as unknown as GroupCommit;
    const imaged = () => journal.images(1, imageKey(SETTINGS));
    // Inputs applied and not yet journaled with their outputs: no image of them.
    images.keepDue(live.values(), commits);
    expect(imaged().size).toBe(0);
    caughtUp = true;
    // The replayed boards at once, one a call, without waiting EVERY_MS: a crash now would replay
    // the round from its start again.
    images.keepDue(live.values(), commits);
    expect(imaged().size).toBe(1);
    images.keepDue(live.values(), commits);
    images.keepDue(live.values(), commits);
    expect([...imaged().keys()].sort()).toEqual(BOARDS);
    const image = () => imaged().get(1)!;
    const first1 = image();
    expect(first1.through).toBe(journal.lastEntry(1));
    // Every board imaged: none again before EVERY_MS, changed or not.
    live.get(1)!.game.apply({ kind: 'result', result: '2-0' }, 10_000_000);
    now = EVERY_MS - 1;
    images.keepDue(live.values(), commits);
    expect(Buffer.from(image().image).equals(Buffer.from(first1.image))).toBe(true);
    // Past EVERY_MS: the changed board is imaged again; the unchanged ones never, however old.
    now = 3 * EVERY_MS;
    const others = [2, 3].map((b) => Buffer.from(imaged().get(b)!.image));
    images.keepDue(live.values(), commits);
    expect(Buffer.from(image().image).equals(Buffer.from(first1.image))).toBe(false);
    images.keepDue(live.values(), commits);
    images.keepDue(live.values(), commits);
    expect([2, 3].map((b) => Buffer.from(imaged().get(b)!.image).equals(others[b - 2]))).toEqual([
      true,
      true,
    ]);
  });

  it('a new round: nothing replayed, so the boards are first imaged EVERY_MS after the start; restored ones EVERY_MS after it too', () => {
    const journal = open();
    let now = 0;
    const images = new BoardImages(journal, 1, SETTINGS, silentLogger(), imageKey(SETTINGS), () => now);
    const { live } = rebuilt(journal, images);
    const commits = { caughtUp: () => true } as unknown as GroupCommit;
    const imaged = () => journal.images(1, imageKey(SETTINGS));
    // A board plays from the round's start: a crash now replays minutes, no image yet.
    live.get(2)!.game.apply({ kind: 'state', state: 'active', serial: 'SIM-2' }, 1_000);
    images.keepDue(live.values(), commits);
    expect(imaged().size).toBe(0);
    now = EVERY_MS + 1;
    for (const _ of BOARDS) images.keepDue(live.values(), commits);
    expect([...imaged().keys()].sort()).toEqual(BOARDS);
    // The next start restores them: none imaged again before EVERY_MS, changed or not.
    const next = new BoardImages(journal, 1, SETTINGS, silentLogger(), imageKey(SETTINGS), () => now);
    const again = rebuilt(journal, next);
    expect(next.restored).toBe(BOARDS.length);
    again.live.get(2)!.game.apply({ kind: 'state', state: 'connecting' }, 2_000);
    const kept = Buffer.from(imaged().get(2)!.image);
    next.keepDue(again.live.values(), commits);
    expect(Buffer.from(imaged().get(2)!.image).equals(kept)).toBe(true);
    now = 2 * EVERY_MS + 2;
    next.keepDue(again.live.values(), commits);
    expect(Buffer.from(imaged().get(2)!.image).equals(kept)).toBe(false);
  });
});
