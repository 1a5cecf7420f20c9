// Publishing beyond the hall: after every change in the event, each configured target (a local
// folder, SFTP, FTP/FTPS) gets every round's files under the same names as the HTTP routes
// (`rounds/<n>/games.pdn`, `games.json`, `index.json`, `<board>.pdn`, `game-<i>.PDN`, and with a
// tournament `standings.html`, `standings.json`, `standings.csv`, `pairings.html`), and
// `rounds/index.json`, the list of rounds.
import type { PublishConfig, PublishTarget } from '../config/index.ts';
import { type Hub, type HubReader, RoundRebuilding } from '../hub.ts';
import { PublishedChanges } from '../../src/broadcast/index.ts';
import type { GameEvent, GameSnapshot } from '../../src/game/types.ts';
import { type Event, standingsCsv, tableResults } from '../../src/tournament/index.ts';
import en from '../web/shared/i18n/en.js';
import { PdnCache, roundFiles, roundsIndex, roundsWithGames } from '../views/rounds.ts';
import { pairingSheet } from '../views/pairing-sheet.ts';
import { standingsAfter, standingsPage } from '../views/standings.ts';
import type { TournamentSource } from '../tournament/access.ts';
import { directoryUploader } from './directory.ts';
import { ftpUploader } from './ftp.ts';
import { type PublishLog, TargetScheduler, type TargetState } from './scheduler.ts';
import { sftpUploader } from './sftp.ts';
import type { PublishFile, Uploader } from './types.ts';

export type { PublishLog, TargetState } from './scheduler.ts';

export interface Publishing {
  /** One entry per target, in config order (for /health and the console). */
  state(): TargetState[];
  /** The tournament changed (a result, a name, a pairing): the rounds it touches go out again. */
  changed(): void;
  stop(): Promise<void>;
}

export function uploaderFor(target: PublishTarget, timeoutMs: number): Uploader {
  switch (target.kind) {
    case 'directory':
      return directoryUploader(target.path);
    case 'sftp':
      return sftpUploader(target, timeoutMs);
    case 'ftp':
      return ftpUploader(target, timeoutMs);
  }
}

/**
 * Every round's files with their paths under a target's root, and `rounds/index.json`: a past
 * round is a published thing too (a result typed for it, a name corrected, standings that follow).
 * Each round's files are made again only when its games or the tournament changed; a past round
 * being rebuilt from the journal keeps what it had and is asked again (`retry`).
 */
export class EventFiles {
  private readonly kept = new Map<number, { key: string; files: PublishFile[] }>();
  private last: PublishFile[] | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** What of the boards' events changes their published games. */
  private readonly published = new PublishedChanges();
  private readonly pdn = new PdnCache((game) => this.published.versionOf(game));

  constructor(
    private readonly hub: Pick<HubReader, 'round' | 'hasRound' | 'games'>,
    private readonly tournament?: TournamentSource,
    /** Called a second after a round could not be read (being rebuilt): read it again then. */
    private readonly retry: () => void = () => {},
  ) {}

  /**
   * Something changed: the next `files()` looks again (rounds unchanged are not made again). A
   * board's event that changes nothing published (most clock readings, a connection's state) is no
   * change: false.
   */
  changed(event?: GameEvent): boolean {
    if (event && !this.published.touches(event, this.hub.round())) return false;
    this.last = undefined;
    return true;
  }

  files(): PublishFile[] {
    if (this.last) return this.last;
    const event = this.tournament?.load();
    const eventKey = event ? JSON.stringify(event) : '';
    const out: PublishFile[] = [];
    const listed = roundsWithGames(this.hub);
    let complete = true;
    for (const round of listed) {
      let games: GameSnapshot[];
      try {
        games = this.hub.games(round);
      } catch (e) {
        if (!(e instanceof RoundRebuilding)) throw e;
        complete = false;
        out.push(...(this.kept.get(round)?.files ?? []));
        continue;
      }
      if (games.length === 0) continue;
      const key = `${games.map((g) => `${g.info.board}:${this.published.versionOf(g)}`).join(',')}|${eventKey}`;
      let kept = this.kept.get(round);
      if (kept?.key !== key) {
        kept = { key, files: filesOfRound(round, games, this.pdn, event) };
        this.kept.set(round, kept);
      }
      out.push(...kept.files);
    }
    if (listed.length === 0) return [];
    const index = roundsIndex(listed, this.hub.round(), event?.name || undefined, event !== undefined);
    out.push({ path: 'rounds/index.json', body: JSON.stringify(index) });
    if (complete) this.last = out;
    else if (!this.retryTimer)
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.retry();
      }, REBUILD_RETRY_MS).unref();
    return out;
  }

  stop(): void {
    clearTimeout(this.retryTimer);
  }
}

/** How soon a round being rebuilt from the journal is asked for again. */
const REBUILD_RETRY_MS = 1000;

/** One round's files: its games, and with a tournament its standings and pairing sheet. */
function filesOfRound(
  round: number,
  games: readonly GameSnapshot[],
  pdn: PdnCache,
  event: Event | undefined,
): PublishFile[] {
  const files = roundFiles(round, games, pdn, event && tableResults(event, round)).map((f) => ({
    path: `rounds/${round}/${f.name}`,
    body: f.body,
  }));
  return [...files, ...standingsFiles(round, event)];
}

/** The standings after the round, under the names of the HTTP routes (nothing without a tournament). */
function standingsFiles(round: number, event: Event | undefined): PublishFile[] {
  const doc = event && standingsAfter(event, round);
  if (!doc) return [];
  const at = (name: string) => `rounds/${round}/${name}`;
  const sheet = pairingSheet(event, round, { code: 'en', messages: en.messages });
  return [
    // A published file answers no request: its page is in the reference language.
    // `.html`: a web server serves a file by its extension (without one, as a download).
    { path: at('standings.html'), body: standingsPage(doc, '', { code: 'en', messages: en.messages }) },
    { path: at('standings.json'), body: JSON.stringify(doc) },
    { path: at('standings.csv'), body: standingsCsv(doc.groups.flatMap((g) => g.rows)) },
    ...(sheet ? [{ path: at('pairings.html'), body: sheet }] : []),
  ];
}

/** What a target's configuration gives away on the network, when it was chosen so. */
export function insecurity(target: PublishTarget): string | undefined {
  if (target.kind === 'sftp' && target.acceptAnyHostKey && !target.hostFingerprint && !target.knownHosts)
    return "the SFTP server's host key is not checked (acceptAnyHostKey): whoever answers at that address gets the login";
  if (target.kind === 'ftp' && target.secure === false)
    return `plain FTP (secure: false): the password${target.user === 'anonymous' ? '' : ` of ${target.user}`} and the files cross the network readable`;
  return undefined;
}

export function startPublishing(options: {
  hub: Hub;
  config: PublishConfig;
  log: PublishLog;
  tournament?: TournamentSource;
}): Publishing {
  const { hub, config, log } = options;
  const event = new EventFiles(hub, options.tournament, () => changed());
  const files = () => event.files();
  const targets = config.targets.map((t) => {
    const uploader = uploaderFor(t, config.timeoutMs);
    const insecure = insecurity(t);
    if (insecure) log.warn({ target: uploader.label }, `publish: ${insecure}`);
    return new TargetScheduler(uploader, files, config, log);
  });
  const changed = () => {
    event.changed();
    for (const t of targets) t.changed();
  };
  const unsubscribe =
    targets.length > 0
      ? hub.subscribe((e) => {
          if (event.changed(e)) for (const t of targets) t.changed();
        })
      : () => {};
  // Every round's files go out at once, so a broadcast finds every game before the first move, and
  // a target added since (or back after an outage) gets the rounds before it too.
  changed();
  return {
    state: () => targets.map((t) => t.state()),
    changed,
    async stop() {
      unsubscribe();
      event.stop();
      await Promise.all(targets.map((t) => t.stop()));
    },
  };
}
