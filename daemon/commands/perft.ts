// `damlink perft --fen F --depth N [--variant brazilian] [--divide] [--json]`: leaf count of the
// legal-move tree (canonical moves); the last line is the count, or one JSON document with --json.
import type { Command } from 'commander';
import { parseFen, Position, type Variant, writeFen } from '../../src/engine/index.ts';
import { perft, perftDivide } from '../../src/engine/perft.ts';
import { formatLocated } from '../../src/result.ts';
import { variantOption, wholeNumber } from './options.ts';
import { usageError } from '../failure.ts';

/** The `--fen` position of `--variant` (default: the variant's initial position); a bad FEN is a usage error. */
export function positionFromOptions(opts: { fen?: string; variant: Variant }): Position {
  if (opts.fen === undefined) return Position.initial(opts.variant);
  const r = parseFen(opts.fen, { variant: opts.variant });
  if (!r.ok) throw usageError(`--fen ${formatLocated(r.error)}`);
  return r.value;
}

interface PerftFlags {
  fen?: string;
  depth: number;
  variant: Variant;
  divide?: boolean;
  json?: boolean;
}

export function registerPerft(program: Command): void {
  program
    .command('perft')
    .description('count the leaves of the legal-move tree (last line is the count)')
    .option('--fen <fen>', 'start position (default: the initial position)')
    .requiredOption('--depth <n>', 'depth in plies (0 to 40)', wholeNumber('--depth', 0, 40))
    .addOption(variantOption())
    .option('--divide', 'print the count below each first move first')
    .option('--json', 'one JSON document: {fen, variant, depth, nodes, divide?: [{move, nodes}]}')
    .action((opts: PerftFlags) => {
      const pos = positionFromOptions(opts);
      const divide = opts.divide && opts.depth > 0 ? perftDivide(pos, opts.depth) : undefined;
      const nodes = divide ? divide.reduce((n, d) => n + d.nodes, 0) : perft(pos, opts.depth);
      if (opts.json) {
        const doc = { fen: writeFen(pos), variant: opts.variant, depth: opts.depth, nodes, divide };
        console.log(JSON.stringify(doc));
        return;
      }
      for (const { move, nodes: below } of divide ?? []) console.log(`${move} ${below}`);
      console.log(nodes);
    });
}
