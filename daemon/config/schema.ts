// What a damlink.yaml / damlink.json may contain. Validated once at start; defaults make a file
// with only `boards:` (or flags alone) enough.
import { z } from 'zod';
import { PROTOCOLS } from '../../firmware-protocol/protocols.ts';
import { parseTimeControl } from '../../src/clock/time-control.ts';
import { DRAW_PROFILES } from '../../src/engine/draw.ts';
import { SIDES, VARIANTS } from '../../src/engine/index.ts';
import { parseSource } from './source.ts';
import { hasControlCharacter } from './text.ts';

/** pino's levels, the ones `log.level` and `run --log-level` accept. */
/** Of one core, the share the boards' gap searches take at most by default (`gapSearch.share`). */
export const DEFAULT_SEARCH_SHARE = 0.3;
/**
 * Defaults the daemon's parts fall back on when built without a configuration (tests, benches),
 * and the schema's: declared here once.
 */
export const DEFAULTS = {
  /** Bytes waiting to be sent to one client before it is dropped (`limits.clientBuffer`). */
  clientBuffer: 4 * 1024 * 1024,
  /** Bytes waiting for all clients together (`limits.unsentBytes`). */
  unsentBytes: 256 * 1024 * 1024,
  /** Bytes of whole rounds sent to one address per second (`limits.catchUpBytesPerSecond`). */
  catchUpBytesPerSecond: 1024 * 1024,
  /** Bytes of events a gateway holds for one board, waiting and kept for `since` (`limits.gatewayBoardBytes`). */
  gatewayBoardBytes: 4 * 1024 * 1024,
  /** Board inputs kept in memory while the journal cannot write (`journal.backlog`). */
  journalBacklog: 100_000,
} as const;

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;

/** A string YAML may have written as a number (`timeControl: 90`). */
const text = () => z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string());

/** Text of a PDN tag (players, event…): one line, no control characters (then no further checks). */
const tagText = () =>
  text().refine((s) => !hasControlCharacter(s), {
    message: 'control characters (a newline, a tab…) are not allowed',
    abort: true,
  });

/**
 * A secret: text as written, long enough not to be guessed. A YAML number is refused rather than
 * turned into text — YAML has already changed its digits (`0123` is 83, 20 digits lose the last
 * ones) — and so is the example file's placeholder.
 */
const secret = () =>
  z
    .string({
      error: (issue) =>
        typeof issue.input === 'number'
          ? 'a number, not text: YAML changes the digits of numbers; quote the token'
          : 'expected the token as text',
    })
    .min(16, 'too short: a token needs at least 16 characters')
    .refine((s) => !/^change-me/i.test(s), 'still the example value: choose a token of your own')
    .refine((s) => !hasControlCharacter(s), 'control characters are not allowed');

/** A page's origin (`https://club.example`, no path): the pages allowed to present a token. */
const origin = z.string().refine((s) => {
  try {
    const url = new URL(s);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === s.replace(/\/$/, '');
  } catch {
    return false;
  }
}, 'expected an origin like https://club.example (scheme, host and port only)');

const mqttUrl = text().pipe(z.string().regex(/^(mqtts?|wss?):\/\/./, 'expected mqtt://host:port'));

const sourceField = text().superRefine((value, ctx) => {
  const parsed = parseSource(value);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message });
});

/** A time control in the PDN `TimeControl` form, seconds: `5400+30`, `40/5400:1800+30`. */
const timeControlField = tagText().superRefine((value, ctx) => {
  const parsed = parseTimeControl(value);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error.message });
});

/**
 * Protocol and physical-board options: `name` picks the firmware protocol (`auto`: `hid` for hid:
 * sources, else `line`); the other keys (fieldMap, pieceCodes, orientation, scan, scanMs, clockWhite,
 * hidLayout, baudRate…) are firmware-protocol's board description, checked by it at load.
 */
export const protocolSchema = z.looseObject({
  name: z.enum(['auto', ...PROTOCOLS]).default('auto'),
  baudRate: z.number().int().positive().optional(),
});

export const boardSchema = z.strictObject({
  source: sourceField,
  /** Board number in the round (default: position in the list, from 1). */
  board: z.number().int().min(1).optional(),
  white: tagText().optional(),
  black: tagText().optional(),
  /** Expected serial number: a board reporting it is this board whatever port it is on. */
  serial: text().optional(),
  protocol: protocolSchema.optional(),
  /** A calibrated board's profile file (`damlink calibrate --out`); wins over `protocol`'s field map. */
  profile: z.string().min(1).optional(),
});

const hostField = text().pipe(z.string().min(1));
const portField = z.number().int().min(1).max(65535);

/** Where a round's files are published beyond the hall; each target gets `rounds/<n>/…` under its root. */
export const publishTargetSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('directory'),
    /** A local folder (often one a web server or a sync tool serves); files replaced atomically. */
    path: z.string().min(1),
  }),
  z
    .strictObject({
      kind: z.literal('sftp'),
      host: hostField,
      port: portField.default(22),
      user: text().pipe(z.string().min(1)),
      /** Path of a private key file (OpenSSH or PEM); or give `password`. */
      privateKey: z.string().min(1).optional(),
      passphrase: text().optional(),
      password: text().optional(),
      /** The server's host key as `ssh-keygen -lf` prints it (`SHA256:…`); others are refused. */
      hostFingerprint: z
        .string()
        .regex(/^SHA256:[A-Za-z0-9+/]{43}=?$/, 'expected SHA256:… as ssh-keygen -l prints it')
        .optional(),
      /** Or an OpenSSH known_hosts file that lists the server (`ssh-keyscan -H host >> file`). */
      knownHosts: z.string().min(1).optional(),
      /** Publish to whatever server answers at that address, its key unchecked (logged as a warning). */
      acceptAnyHostKey: z.literal(true).optional(),
      /** Folder on the server that holds `rounds/`. */
      dir: z.string().min(1).default('.'),
    })
    .refine((t) => t.privateKey !== undefined || t.password !== undefined, {
      message: 'give privateKey (a key file) or password',
    })
    .refine(
      (t) => t.hostFingerprint !== undefined || t.knownHosts !== undefined || t.acceptAnyHostKey === true,
      {
        message:
          "give hostFingerprint (ssh-keygen -lf of the server's host key) or knownHosts (a known_hosts file): " +
          'without either, a machine on the network could pose as the server and take the password; ' +
          'acceptAnyHostKey: true publishes anyway',
      },
    ),
  z.strictObject({
    kind: z.literal('ftp'),
    host: hostField,
    port: portField.default(21),
    user: text().pipe(z.string().min(1)).default('anonymous'),
    password: text().default(''),
    /**
     * `true` (default): explicit FTPS (AUTH TLS); `implicit`: TLS from the first byte (port 990);
     * `false`: plain FTP, the password readable on the network (logged as a warning).
     */
    secure: z.union([z.boolean(), z.literal('implicit')]).default(true),
    /** Path of a PEM certificate to trust besides the usual authorities (a self-signed server). */
    ca: z.string().min(1).optional(),
    dir: z.string().min(1).default('/'),
  }),
]);

export const publishSchema = z.strictObject({
  targets: z.array(publishTargetSchema).default([]),
  /** Moves within this window go out in one upload. */
  coalesceMs: z.number().int().min(0).max(10_000).default(250),
  /** After a failure the next try waits firstMs, doubling up to maxMs. */
  retry: z
    .strictObject({
      firstMs: z.number().int().min(10).default(1000),
      maxMs: z.number().int().min(10).default(30_000),
    })
    .default({ firstMs: 1000, maxMs: 30_000 }),
  /** A connection or a file that takes longer has failed. */
  timeoutMs: z.number().int().min(100).default(10_000),
});

/** The broker and how to log in (`mqtt:`; `damlink gateway` reads it too); `ca`, `cert`, `key` are PEM files. */
export const mqttSchema = z.strictObject({
  url: mqttUrl,
  username: z.string().optional(),
  password: z.string().optional(),
  ca: z.string().min(1).optional(),
  cert: z.string().min(1).optional(),
  key: z.string().min(1).optional(),
  /** Names this daemon on the broker; default: the host and the data directory (stable across restarts). */
  clientId: z.string().min(1).max(256).optional(),
  /** First level of every topic; the daemons and gateways of one event share it. */
  baseTopic: z
    .string()
    .regex(/^[^#+\s]+$/, 'a topic without wildcards or spaces')
    .default('damlink'),
});

/** The tournament around the boards (`tournament:`); docs/tournament.md. */
export const tournamentSchema = z.strictObject({
  /** Players and pairings: damlink's JSON, a CSV of players, or a TRF (as `--tournament`). */
  file: z.string().min(1).optional(),
  /** The event's name where the file gives none (a CSV of players). */
  name: tagText().optional(),
  /** Rounds planned (TRF `142`) where the file gives none; pairing programs need it (default 7). */
  rounds: z.number().int().min(1).max(99).optional(),
  /** The groups in their order: the first group's tables come first (on the electronic boards). A player's group must be one of them. */
  groups: z.array(tagText().pipe(z.string().min(1))).optional(),
  /** The top seed's colour in round 1 (TRF `152`) where the file gives none: `lot` draws it once, and it is kept. */
  firstColour: z.enum([...SIDES, 'lot']).default('lot'),
  /** The groups are paired together: a pairing may seat players of two groups at one table. */
  groupsTogether: z.boolean().default(false),
  /** Players of one club never meet (TRF `XXP` for the pairing program). */
  clubsApart: z.boolean().default(false),
  /** Players who never meet (one family), by starting rank: each list is one `XXP` line. */
  keepApart: z.array(z.array(z.number().int().min(1)).min(2)).default([]),
  /** Pairs Swiss rounds: program and arguments, `{in}` the TRF, `{out}` the pairs (as `--pairing-program`). */
  pairingProgram: z.string().min(1).optional(),
  /** Players' birth dates and sex in the public `/api/v1/tournament` and `tournament.trf` (the console always has them). */
  publicPersonalData: z.boolean().default(false),
});

export const configSchema = z.strictObject({
  event: tagText().optional(),
  site: tagText().optional(),
  /** `YYYY.MM.DD`; default: today when the game starts. */
  date: z
    .string()
    .regex(/^\d{4}\.\d{2}\.\d{2}$/, 'expected YYYY.MM.DD')
    .optional(),
  round: z.number().int().min(1).default(1),
  variant: z.enum(VARIANTS).default('international'),
  timeControl: timeControlField.optional(),
  /** Appendix G (the quickplay finish) announced for the event (G.2); the time control decides (G.3). */
  quickplayFinish: z.boolean().default(false),
  drawRule: z
    .strictObject({
      profile: z.enum(DRAW_PROFILES).default('fmjd'),
      /** 6.5 draws with advantage (6.3 counts 25 moves instead of 16); not in the 64-square profile. */
      advantage: z.boolean().default(false),
    })
    .default({ profile: 'fmjd', advantage: false }),
  protocol: protocolSchema.default({ name: 'auto' }),
  boards: z.array(boardSchema).default([]),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(8080),
  dataDir: z.string().min(1).default('./data'),
  /** Without either, the daemon makes an admin token in `dataDir` at first start and prints it. */
  tokens: z
    .strictObject({
      arbiter: secret().optional(),
      admin: secret().optional(),
    })
    .default({}),
  /** Pages besides the daemon's own that may present a token (a reverse proxy's public origin). */
  allowedOrigins: z.array(origin).default([]),
  /**
   * Names the daemon's pages are reached under besides this machine's own (loopback, its host name,
   * its addresses): a reverse proxy's public name. A page under any other name may not present a token.
   */
  allowedHosts: z
    .array(z.string().regex(/^[A-Za-z0-9.:-]+$/, 'a host name or address, without port'))
    .default([]),
  limits: z
    .strictObject({
      /** Open connections (HTTP and WebSocket) in all, and from one address (IPv6: one /64). */
      connections: z.number().int().positive().default(10_000),
      connectionsPerAddress: z.number().int().positive().default(256),
      /** Bytes waiting to be sent to one client before it is dropped. */
      clientBuffer: z.number().int().positive().default(DEFAULTS.clientBuffer),
      /** Bytes waiting for all clients together: past it the slowest readers are dropped first. */
      unsentBytes: z.number().int().positive().default(DEFAULTS.unsentBytes),
      /** Bytes of whole rounds (subscriptions' catch-ups, `games`) sent to one address per second. */
      catchUpBytesPerSecond: z.number().int().positive().default(DEFAULTS.catchUpBytesPerSecond),
      /**
       * `damlink gateway`: bytes of events held for one board (waiting for its state, kept for
       * spectators' `since`, asked of a daemon); a game's events between two states are kilobytes.
       */
      gatewayBoardBytes: z
        .number()
        .int()
        .min(64 * 1024)
        .max(1024 * 1024 * 1024)
        .default(DEFAULTS.gatewayBoardBytes),
    })
    .prefault({}),
  /** Simulated boards only: the daemon's clock runs this many times faster (matches the simulator's speed). */
  timeScale: z.number().positive().max(1000).default(1),
  /** Write the engine's result at once instead of waiting for the arbiter. */
  autoResult: z.boolean().default(false),
  /** Also publish games to an MQTT broker. */
  mqtt: mqttSchema.optional(),
  /** @deprecated `mqtt: { url }` — still read. */
  mqttUrl: mqttUrl.optional(),
  log: z
    .strictObject({
      level: z.enum(LOG_LEVELS).default('info'),
    })
    .default({ level: 'info' }),
  publish: publishSchema.optional(),
  tournament: tournamentSchema.prefault({}),
  gapSearch: z
    .strictObject({
      /**
       * Of one CPU core, the share the searches for plies lost in gaps (reconnects, restarts) may
       * take, all boards together; the rest stays with the boards being played on.
       */
      share: z.number().min(0.05).max(1).default(DEFAULT_SEARCH_SHARE),
      /**
       * The positions one gap's search may look at, in all (default 2,000,000: gaps of 12 plies
       * need up to 1,310,000). Less costs a slow machine less CPU a hopeless gap, brings the
       * `unknown-position` sooner and shortens a restart (which replays the searches); the round
       * keeps the value it was played with.
       */
      positions: z.number().int().min(1000).max(20_000_000).optional(),
    })
    .default({ share: DEFAULT_SEARCH_SHARE }),
  journal: z
    .strictObject({
      /**
       * Board inputs kept in memory while the journal cannot write (disk full, I/O error), written
       * in order once it can; past this the daemon exits (code 1) to be restarted.
       */
      backlog: z.number().int().min(100).default(DEFAULTS.journalBacklog),
    })
    .default({ backlog: DEFAULTS.journalBacklog }),
  shutdown: z
    .strictObject({
      /**
       * On SIGTERM or Ctrl-C the journal is written and closed at once; the broker, the publish
       * targets and the clients get this long to say goodbye, then the daemon exits anyway.
       */
      timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
    })
    .default({ timeoutMs: 10_000 }),
});

export type Config = z.infer<typeof configSchema>;
export type BoardConfig = z.infer<typeof boardSchema>;
export type ProtocolConfig = z.infer<typeof protocolSchema>;
export type PublishConfig = z.infer<typeof publishSchema>;
export type PublishTarget = z.infer<typeof publishTargetSchema>;
export type TournamentConfig = z.infer<typeof tournamentSchema>;

/** The broker settings: `mqtt`, else the deprecated `mqttUrl` (ignored when `mqtt` is given). */
export function mqttSettings(config: Pick<Config, 'mqtt' | 'mqttUrl'>): Config['mqtt'] {
  return config.mqtt ?? (config.mqttUrl ? { url: config.mqttUrl, baseTopic: 'damlink' } : undefined);
}
