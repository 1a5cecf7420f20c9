// `damlink moves --fen F [--variant brazilian]`: the legal moves as JSON (docs/design.md contract):
// one object per canonical move `{ from, to, captured, path, pdn }`.
import type { Command } from 'commander';
import { legalMoves, legalSequences, moveNotation, type Variant } from '../../src/engine/index.ts';
import { variantOption } from './options.ts';
import { positionFromOptions } from './perft.ts';

export function registerMoves(program: Command): void {
  program
    .command('moves')
    .description('print the legal moves of a position as a JSON array')
    .option('--fen <fen>', 'position (default: the initial position)')
    .addOption(variantOption())
    .option('--sequences', 'every capture path and order, not one per canonical move')
    .action((opts: { fen?: string; variant: Variant; sequences?: boolean }) => {
      const pos = positionFromOptions(opts);
      const legal = legalMoves(pos);
      const list = (opts.sequences ? legalSequences(pos) : legal).map((m) => ({
        from: m.from,
        to: m.to,
        captured: m.captured,
        path: m.path,
        pdn: moveNotation(pos, m, legal),
      }));
      console.log(`[${list.map((m) => JSON.stringify(m)).join(',\n ')}]`);
    });
}
