// Publishing beyond the hall: after every change in the round, each configured target (a local
// folder, SFTP, FTP/FTPS) gets the round's files under the same names as the HTTP routes
// (`rounds/<n>/games.pdn`, `games.json`, `index.json`, `<board>.pdn`, `game-<i>.PDN`, and with a
// tournament `standings.html`, `standings.json`, `standings.csv`, `pairings.html`).
import type { PublishConfig, PublishTarget } from '../config/index.ts';
import type { Hub } from '../hub.ts';
import { standingsCsv } from '../../src/tournament/index.ts';
import en from '../web/js/i18n/en.js';
import { PdnCache, roundFiles, tournamentResults } from '../server/rounds.ts';
import { pairingSheet } from '../server/pairing-sheet.ts';
import { standingsAfter, standingsPage, type TournamentSource } from '../server/standings.ts';
import { directoryUploader } from './directory.ts';
import { ftpUploader } from './ftp.ts';
import { type PublishLog, TargetScheduler, type TargetState } from './scheduler.ts';
import { sftpUploader } from './sftp.ts';
import type { PublishFile, Uploader } from './types.ts';

export type { PublishLog, TargetState } from './scheduler.ts';

export interface Publishing {
  /** One entry per target, in config order (for /health and the console). */
  state(): TargetState[];
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

/** The current round's files with their paths under a target's root. */
export function currentRoundFiles(
  hub: Hub,
  pdn = new PdnCache(),
  tournament?: TournamentSource,
): () => PublishFile[] {
  return () => {
    const round = hub.round();
    const games = hub.games(round);
    if (games.length === 0) return [];
    const files = roundFiles(round, games, pdn, tournamentResults(tournament, round)).map((f) => ({
      path: `rounds/${round}/${f.name}`,
      body: f.body,
    }));
    return [...files, ...standingsFiles(round, tournament)];
  };
}

/** The standings after the round, under the names of the HTTP routes (nothing without a tournament). */
function standingsFiles(round: number, tournament: TournamentSource | undefined): PublishFile[] {
  const event = tournament?.load();
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
  const files = currentRoundFiles(hub, new PdnCache(), options.tournament);
  const targets = config.targets.map((t) => {
    const uploader = uploaderFor(t, config.timeoutMs);
    const insecure = insecurity(t);
    if (insecure) log.warn({ target: uploader.label }, `publish: ${insecure}`);
    return new TargetScheduler(uploader, files, config, log);
  });
  const changed = () => {
    for (const t of targets) t.changed();
  };
  const unsubscribe = targets.length > 0 ? hub.subscribe(changed) : () => {};
  // The round's files go out at once, so a broadcast finds every game before the first move.
  changed();
  return {
    state: () => targets.map((t) => t.state()),
    async stop() {
      unsubscribe();
      await Promise.all(targets.map((t) => t.stop()));
    },
  };
}
