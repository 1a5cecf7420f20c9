// `damlink perft --fen F --depth N [--variant brazilian] [--divide]`: leaf count of the legal-move
// tree (canonical moves); the last line is the count.
import type { Command } from 'commander';
import { isVariant, parseFen, Position, type Variant } from '../../src/engine/index.ts';
import { perft, perftDivide } from '../../src/engine/perft.ts';
import { formatLocated } from '../../src/result.ts';

/** Reads `--variant` and `--fen` (default: the variant's initial position); prints the error and returns undefined. */
export function positionFromOptions(opts: { fen?: string; variant?: string }): Position | undefined {
  const variant = opts.variant ?? 'international';
  if (!isVariant(variant)) {
    console.error(`unknown variant "${variant}" (international or brazilian)`);
    process.exitCode = 2;
    return undefined;
  }
  if (opts.fen === undefined) return Position.initial(variant as Variant);
  const r = parseFen(opts.fen, { variant });
  if (!r.ok) {
    console.error(`--fen ${formatLocated(r.error)}`);
    process.exitCode = 2;
    return undefined;
  }
  return r.value;
}

export function registerPerft(program: Command): void {
  program
    .command('perft')
    .description('count the leaves of the legal-move tree (last line is the count)')
    .option('--fen <fen>', 'start position (default: the initial position)')
    .requiredOption('--depth <n>', 'depth in plies')
    .option('--variant <name>', 'international or brazilian', 'international')
    .option('--divide', 'print the count below each first move first')
    .action((opts: { fen?: string; depth: string; variant: string; divide?: boolean }) => {
      const pos = positionFromOptions(opts);
      if (!pos) return;
      const depth = Number(opts.depth);
      if (!Number.isInteger(depth) || depth < 0 || depth > 40) {
        console.error(`--depth must be a whole number from 0 to 40, got "${opts.depth}"`);
        process.exitCode = 2;
        return;
      }
      if (opts.divide && depth > 0) {
        let total = 0;
        for (const { move, nodes } of perftDivide(pos, depth)) {
          console.log(`${move} ${nodes}`);
          total += nodes;
        }
        console.log(total);
      } else console.log(perft(pos, depth));
    });
}
