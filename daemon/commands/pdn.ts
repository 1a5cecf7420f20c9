// `damlink pdn check FILES… [--json] [--variations keep]`: replays every game of every file
// against the rules; prints `file: N games, M moves ok` or the located errors; exit 1 on any error.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { isVariant, parsePdn, type Variant } from '../../src/engine/index.ts';
import { formatLocated, type ParseError } from '../../src/result.ts';

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
    .description('replay every game of PDN files against the rules; non-zero exit on any error')
    .argument('<files...>', 'PDN files')
    .option('--json', 'one JSON report per file, as an array')
    .option('--variant <name>', 'variant of games without a GameType tag', 'international')
    .option('--variations', 'check the moves of variations too')
    .action((files: string[], opts: { json?: boolean; variant: string; variations?: boolean }) => {
      if (!isVariant(opts.variant)) {
        console.error(`unknown variant "${opts.variant}" (international or brazilian)`);
        process.exitCode = 2;
        return;
      }
      const reports = files.map((f) => checkFile(f, opts.variant as Variant, opts.variations === true));
      if (opts.json) console.log(JSON.stringify(reports, null, 2));
      else {
        for (const r of reports) {
          if (r.errors.length === 0) console.log(`${r.file}: ${r.games} games, ${r.moves} moves ok`);
          else for (const e of r.errors) console.log(formatLocated(e));
        }
      }
      if (reports.some((r) => r.errors.length > 0)) process.exitCode = 1;
    });
}
