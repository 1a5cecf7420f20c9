// pino logger: JSON lines to `<dataDir>/damlink.log` (rotate with docs/ops/logrotate), and pretty
// lines on stderr when it is a terminal (JSON there too when it is not, e.g. under systemd).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { createRequire } from 'node:module';

export type { Logger } from 'pino';

const requireHere = createRequire(import.meta.url);

export interface LogOptions {
  dataDir?: string;
  level?: string;
  /** Pretty lines on stderr (default: when stderr is a TTY). */
  pretty?: boolean;
  /** No stderr output at all (tests, benchmarks). */
  quiet?: boolean;
}

export function createLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? 'info';
  const streams: pino.StreamEntry[] = [];
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    // Reopened on SIGHUP by logrotate's postrotate; `copytruncate` works too.
    const file = pino.destination({ dest: join(options.dataDir, 'damlink.log'), sync: false, mkdir: true });
    process.on('SIGHUP', () => file.reopen());
    streams.push({ level: level as pino.Level, stream: file });
  }
  if (!options.quiet) {
    const tty = options.pretty ?? process.stderr.isTTY === true;
    // pino-pretty only on a terminal: it is neither needed nor loaded under systemd or in tests.
    const pretty = tty ? (requireHere('pino-pretty') as typeof import('pino-pretty')) : undefined;
    const stream = pretty
      ? pretty({ destination: 2, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : pino.destination(2);
    streams.push({ level: level as pino.Level, stream });
  }
  if (streams.length === 0) return pino({ level: 'silent' });
  return pino({ level }, pino.multistream(streams));
}

/** A logger that drops everything. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
