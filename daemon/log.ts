// pino logger: JSON lines to `<dataDir>/damlink.log` (rotate with docs/ops/logrotate; written by
// log-file.ts), and pretty lines on stderr when it is a terminal (JSON there too when it is not,
// e.g. under systemd).
import { privateDir } from './data-dir.ts';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { createRequire } from 'node:module';
import { LogFile } from './log-file.ts';

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
  return openLogger(options).log;
}

/**
 * The logger, and its file when there is one (its health goes to /health). The file is written
 * by LogFile, never by a blocking or endlessly retrying write: a full disk does not hold the
 * daemon up, nor its exit.
 */
export function openLogger(options: LogOptions = {}): { log: Logger; file?: LogFile } {
  const level = options.level ?? 'info';
  const streams: pino.StreamEntry[] = [];
  let file: LogFile | undefined;
  if (options.dataDir) {
    privateDir(options.dataDir);
    const opened = new LogFile(join(options.dataDir, 'damlink.log'));
    file = opened;
    // Reopened on SIGHUP by logrotate's postrotate; `copytruncate` works too.
    process.on('SIGHUP', () => opened.reopen());
    process.once('exit', () => opened.flushOnExit());
    streams.push({ level: level as pino.Level, stream: opened });
  }
  if (!options.quiet) {
    const tty = options.pretty ?? process.stderr.isTTY === true;
    // pino-pretty only on a terminal: it is neither needed nor loaded under systemd or in tests.
    const pretty = tty ? (requireHere('pino-pretty') as typeof import('pino-pretty')) : undefined;
    const stream = pretty
      ? pretty({ destination: 2, colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
      : pino.destination(2);
    // A stderr that cannot be written (redirected to a full disk) must not take the daemon down.
    stream.on('error', () => {});
    streams.push({ level: level as pino.Level, stream });
  }
  if (streams.length === 0) return { log: pino({ level: 'silent' }) };
  return { log: pino({ level }, pino.multistream(streams)), file };
}

/** A logger that drops everything. */
export const silentLogger = (): Logger => pino({ level: 'silent' });
