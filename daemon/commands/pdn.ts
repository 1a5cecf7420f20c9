// `damlink pdn check FILES… [--json] [--variations]`: replays every game of every file against the
// rules; prints `file: N games, M moves ok` or the located errors; exit 1 on any error. Files are
// read in chunks and their games one at a time, so memory stays bounded whatever their size; the
// JSON report is written as it goes: per file its counts and errors, and per game its tags, moves
// and first problem (an ambiguous move with its candidates).
import { closeSync, openSync, readSync } from 'node:fs';
import type { Command } from 'commander';
import {
  PdnEncodingSniffer,
  type PdnGame,
  PdnReader,
  pdnDecoder,
  type Variant,
} from '../../src/engine/index.ts';
import { formatLocated, type ParseError } from '../../src/result.ts';
import { variantOption } from './options.ts';
import { workFailed } from '../failure.ts';
import { progress } from './progress.ts';

const CHUNK_BYTES = 1 << 20;
/** A file's report keeps this many errors (one a game at most); the rest are counted. */
const MAX_REPORTED_ERRORS = 1000;

export interface FileReport {
  file: string;
  games: number;
  moves: number;
  errors: ParseError[];
  /** Errors beyond MAX_REPORTED_ERRORS, counted but not listed. */
  errorsNotListed?: number;
}

/** A game as `--json` reports it. */
function gameReport(g: PdnGame) {
  return {
    line: g.line,
    tags: g.tags,
    variant: g.variant,
    result: g.result,
    moves: g.moves.map((m) => m.notation),
    problem: g.errors[0] ?? null,
    warnings: g.warnings,
  };
}

/** Calls `each` with every chunk of the file; false from `each` stops early. */
function readChunks(file: string, each: (bytes: Uint8Array) => boolean | undefined): void {
  const fd = openSync(file, 'r');
  try {
    const buffer = new Uint8Array(CHUNK_BYTES);
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (n === 0 || each(buffer.subarray(0, n)) === false) return;
    }
  } finally {
    closeSync(fd);
  }
}

/** Checks one file, giving each game to `onGame` as soon as it is read. */
export function checkFile(
  file: string,
  options: { variant: Variant; variations: boolean },
  onGame: (game: PdnGame) => void,
): FileReport {
  const report: FileReport = { file, games: 0, moves: 0, errors: [] };
  const take = (games: PdnGame[]) => {
    for (const g of games) {
      report.games++;
      report.moves += g.moves.length;
      for (const e of g.errors) {
        if (report.errors.length < MAX_REPORTED_ERRORS) report.errors.push(e);
        else report.errorsNotListed = (report.errorsNotListed ?? 0) + 1;
      }
      onGame(g);
    }
  };
  try {
    const sniffer = new PdnEncodingSniffer();
    readChunks(file, (bytes) => sniffer.push(bytes));
    const decoder = pdnDecoder(sniffer.end());
    const reader = new PdnReader({
      file,
      variant: options.variant,
      variations: options.variations ? 'keep' : 'skip',
    });
    readChunks(file, (bytes) => void take(reader.push(decoder.decode(bytes, { stream: true }))));
    take(reader.push(decoder.decode()));
    take(reader.end());
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    report.errors.push({ code: 'unreadable', message, file });
  }
  return report;
}

export function registerPdn(program: Command): void {
  const pdn = program.command('pdn').description('PDN tools');
  pdn
    .command('check')
    .description('replay every game of PDN files against the rules; exit 1 on any error')
    .argument('<files...>', 'PDN files')
    .option('--json', 'one JSON report per file, as an array, with a report per game')
    .addOption(variantOption('variant of games without a GameType tag'))
    .option('--variations', 'check the moves of variations too')
    .action((files: string[], opts: { json?: boolean; variant: Variant; variations?: boolean }) => {
      const options = { variant: opts.variant, variations: opts.variations === true };
      const bar = progress('pdn check', files.length);
      let bad = 0;
      if (opts.json) console.log('[');
      files.forEach((file, i) => {
        let first = true;
        if (opts.json) console.log(`${i > 0 ? ',' : ''}{"file":${JSON.stringify(file)},"perGame":[`);
        const report = checkFile(file, options, (g) => {
          if (opts.json) console.log(`${first ? '' : ','}${JSON.stringify(gameReport(g))}`);
          else {
            for (const w of g.warnings) console.log(`warning: ${formatLocated(w)}`);
            for (const e of g.errors) console.log(formatLocated(e));
          }
          first = false;
        });
        bar.tick();
        if (report.errors.length > 0) bad++;
        if (opts.json) {
          const { file: _, ...counts } = report;
          console.log(`],${JSON.stringify(counts).slice(1)}`);
        } else if (report.errors.length === 0) {
          console.log(`${file}: ${report.games} games, ${report.moves} moves ok`);
        } else {
          for (const e of report.errors) if (e.code === 'unreadable') console.log(formatLocated(e));
        }
      });
      bar.stop();
      if (opts.json) console.log(']');
      if (bad > 0)
        throw workFailed(`${bad} of ${files.length} file${files.length === 1 ? '' : 's'} with errors`);
    });
}
