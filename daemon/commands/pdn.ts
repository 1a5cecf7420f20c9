// `damlink pdn check FILES… [--json] [--variations]`: replays every game of every file against the
// rules; prints `file: N games, M moves ok` or the located errors; exit 1 on any error.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parsePdn, type Variant } from '../../src/engine/index.ts';
import { formatLocated, type ParseError } from '../../src/result.ts';
import { variantOption } from './options.ts';
import { workFailed } from './program.ts';
import { progress } from './progress.ts';

interface FileReport {
  file: string;
  games: number;
  moves: number;
  errors: ParseError[];
}

function checkFile(file: string, variant: Variant, keep: boolean): FileReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { file, games: 0, moves: 0, errors: [{ code: 'unreadable', message, file }] };
  }
  const r = parsePdn(text, { file, variant, variations: keep ? 'keep' : 'skip' });
  const moves = r.games.reduce((n, g) => n + g.moves.length, 0);
  return { file, games: r.games.length, moves, errors: r.errors };
}

export function registerPdn(program: Command): void {
  const pdn = program.command('pdn').description('PDN tools');
  pdn
    .command('check')
    .description('replay every game of PDN files against the rules; exit 1 on any error')
    .argument('<files...>', 'PDN files')
    .option('--json', 'one JSON report per file, as an array')
    .addOption(variantOption('variant of games without a GameType tag'))
    .option('--variations', 'check the moves of variations too')
    .action((files: string[], opts: { json?: boolean; variant: Variant; variations?: boolean }) => {
      const bar = progress('pdn check', files.length);
      const reports = files.map((f) => {
        const report = checkFile(f, opts.variant, opts.variations === true);
        bar.tick();
        return report;
      });
      bar.stop();
      if (opts.json) console.log(JSON.stringify(reports, null, 2));
      else {
        for (const r of reports) {
          if (r.errors.length === 0) console.log(`${r.file}: ${r.games} games, ${r.moves} moves ok`);
          else for (const e of r.errors) console.log(formatLocated(e));
        }
      }
      const bad = reports.filter((r) => r.errors.length > 0).length;
      if (bad > 0)
        throw workFailed(`${bad} of ${files.length} file${files.length === 1 ? '' : 's'} with errors`);
    });
}
