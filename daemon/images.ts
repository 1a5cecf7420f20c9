// Boards' images (src/game/image.ts) kept in the journal: a start restores each board's and replays
// only the entries after it, instead of every input of the round. Taken of every board when the
// daemon stops, and of one board now and then while the round is played (EVERY_MS a board), so a
// crash replays minutes rather than the round; a board the start replayed (no image of this code
// and these rules, an upgrade's first start) is imaged first, within a minute of the start for 200
// boards, so a second crash does not replay the round again. None of a board searching a gap: its
// search holds large tables, and a replay runs it as it ran.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { Position } from '../src/engine/index.ts';
import { imageOf, restoreImage } from '../src/game/image.ts';
import { type BoardGame, newBoardGame, type ReplaySettings } from '../src/game/board-game.ts';
import type { GroupCommit } from './ingest/group-commit.ts';
import type { BoardImage, Journal } from './journal/index.ts';
import type { BoardRestorer, LiveBoard } from './live-board.ts';
import type { Logger } from './log.ts';
import type { ResumePoint } from './transport/resume.ts';

/** How old a playing board's image may grow before another is taken (ms). */
export const EVERY_MS = 5 * 60_000;

/**
 * How often keepDue is called (ms), a board a call: an image holds the loop about 2 ms (5 ms at
 * p99), so a call takes one, and the boards a start replayed are all imaged within a minute.
 */
export const IMAGING_MS = 250;

/** The classes an image holds instances of beyond the board's own parts. */
const DATA_CLASSES = [Position];

/** What an image holds of a board: its game, and where a board that remembers is to be asked from. */
interface Imaged {
  game: BoardGame;
  resume: ResumePoint | undefined;
}

/** The folders whose code makes what an image holds: a board's game, and its resume point. */
const CODE = ['src', 'firmware-protocol', 'daemon/transport'];

let code: string | undefined;

/** A digest of the code this daemon runs (its tree, compiled or not): another digest, another image. */
function codeDigest(): string {
  if (code) return code;
  const hash = createHash('sha256');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(entry.name)) hash.update(path.slice(root.length)).update(readFileSync(path));
    }
  };
  for (const folder of CODE) walk(join(root, folder));
  code = hash.digest('hex');
  return code;
}

/** The key of the images made by this code under `settings` (a round's rules). */
export function imageKey(settings: ReplaySettings): string {
  const { createTracker: _, ...rules } = settings;
  return createHash('sha256').update(codeDigest()).update(JSON.stringify(rules)).digest('hex').slice(0, 32);
}

export class BoardImages implements BoardRestorer {
  /** Boards a start restored from their images. */
  restored = 0;
  /** When each board's image was last taken (or restored), and its game's version then (−1: whatever it is now). */
  private readonly taken = new Map<LiveBoard, { at: number; version: number }>();
  /** When this start's boards became live: a board that had nothing to replay is first imaged EVERY_MS on. */
  private readonly started: number;

  constructor(
    private readonly journal: Journal,
    private readonly round: number,
    private readonly settings: ReplaySettings,
    private readonly log: Logger,
    private readonly key = imageKey(settings),
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    // Another round's images would only serve a start of that round again: a replay does then.
    try {
      journal.dropImagesBut(round);
    } catch {}
  }

  /**
   * Restores the round's images into `boards` (fresh from a start): by board, the entry each holds
   * the board's state after — the replay goes on from there. A board whose image does not fit keeps
   * its fresh game, and is replayed from the round's start.
   */
  restore(boards: ReadonlyMap<number, LiveBoard>): Map<number, number> {
    const through = new Map<number, number>();
    for (const [board, kept] of this.journal.images(this.round, this.key)) {
      const live = boards.get(board);
      if (!live) continue;
      const game = newBoardGame(this.settings, this.round, board);
      const fresh: Imaged = { game, resume: undefined };
      let restored: ReturnType<typeof restoreImage>;
      try {
        restored = restoreImage(fresh, v8.deserialize(kept.image), DATA_CLASSES);
      } catch (e) {
        restored = { ok: false, problem: { at: '(image)', why: String(e) } };
      }
      if (!restored.ok || (restored.value as Imaged).game !== game) {
        this.log.warn(
          { board, ...(restored.ok ? {} : restored.problem) },
          'a board image does not fit: replayed',
        );
        continue;
      }
      live.game = game;
      live.resume = (restored.value as Imaged).resume;
      live.time.last = kept.last;
      through.set(board, kept.through);
      this.restored++;
      this.taken.set(live, { at: this.now(), version: game.record.currentVersion });
    }
    return through;
  }

  /**
   * After the start's rebuild: the boards it replayed (no image restored, a game with events) are
   * due before any other, as if imaged at the dawn of time: a crash now would replay them again.
   */
  rebuilt(boards: Iterable<LiveBoard>): void {
    for (const live of boards)
      if (!this.taken.has(live) && live.game.record.currentVersion > 0)
        this.taken.set(live, { at: Number.NEGATIVE_INFINITY, version: -1 });
  }

  /** Images of every board that can be imaged (the daemon stops, everything journaled). */
  keepAll(boards: Iterable<LiveBoard>): void {
    this.keep(() => {
      const through = this.journal.lastEntry(this.round);
      const images: BoardImage[] = [];
      for (const live of boards) {
        const image = this.take(live, through);
        if (image) images.push(image);
      }
      return images;
    });
  }

  /**
   * One image, when everything applied is journaled (`commits`): of a board this start replayed
   * (`rebuilt`), else of the board whose image is the oldest, past EVERY_MS and changed since (a
   * board with none, EVERY_MS after the start). Called every IMAGING_MS (at most one board a call).
   */
  keepDue(boards: Iterable<LiveBoard>, commits: GroupCommit): void {
    const now = this.now();
    let due: LiveBoard | undefined;
    let oldest = now - EVERY_MS;
    for (const live of boards) {
      if (live.game.tracker.searching) continue;
      const last = this.taken.get(live);
      const at = last?.at ?? this.started;
      if (at > oldest || last?.version === live.game.record.currentVersion) continue;
      oldest = at;
      due = live;
    }
    if (!due || !commits.caughtUp()) return;
    const board = due;
    this.keep(() => {
      const image = this.take(board, this.journal.lastEntry(this.round));
      // A board that cannot be imaged now waits its turn again.
      if (!image) this.taken.set(board, { at: now, version: -1 });
      return image ? [image] : [];
    });
  }

  private take(live: LiveBoard, through: number): BoardImage | undefined {
    if (live.game.tracker.searching) return undefined;
    const { board } = live.setup;
    const fresh: Imaged = { game: newBoardGame(this.settings, this.round, board), resume: undefined };
    const image = imageOf({ game: live.game, resume: live.resume } satisfies Imaged, fresh, DATA_CLASSES);
    if (!image.ok) {
      this.log.debug({ board, ...image.problem }, 'no image of the board now');
      return undefined;
    }
    this.taken.set(live, { at: this.now(), version: live.game.record.currentVersion });
    return { board, through, last: live.time.last, key: this.key, image: v8.serialize(image.value) };
  }

  private keep(take: () => BoardImage[]): void {
    try {
      const images = take();
      if (images.length > 0) this.journal.keepImages(this.round, images);
    } catch (e) {
      // Only time is lost: the next start replays more.
      this.log.warn({ err: String(e) }, 'board images not kept');
    }
  }
}
