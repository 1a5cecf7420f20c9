// Ground-truth files: what really happened on a simulated board, for tests and `damlink replay`.
// `<name>.jsonl` sensor events (docs/design.md contract), `<name>.pdn` the intended game,
// `<name>.injected.json` the injected irregularities (rule, ply, side, t).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimulatedGame } from './game.ts';

export const eventsJsonl = (game: SimulatedGame): string =>
  game.events.map((e) => JSON.stringify(e)).join('\n') + '\n';

export async function writeGroundTruth(dir: string, name: string, game: SimulatedGame): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files = [join(dir, `${name}.jsonl`), join(dir, `${name}.pdn`), join(dir, `${name}.injected.json`)];
  await Promise.all([
    writeFile(files[0], eventsJsonl(game)),
    writeFile(files[1], game.pdn),
    writeFile(files[2], JSON.stringify(game.injected, null, 2) + '\n'),
  ]);
  return files;
}
