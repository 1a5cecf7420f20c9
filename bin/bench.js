#!/usr/bin/env node
// `npm run bench [-- NAME…]`: runs every bench/*.bench.ts (or those whose name contains NAME) one
// after the other in its own process, so one benchmark's heap and JIT state never skew the next.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from './build.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// The daemons the benches start run what an organiser runs: the compiled tree, built from these sources.
await build(root);
const filters = process.argv.slice(2);
const files = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((n) => f.includes(n)))
  .sort();
let failed = 0;
for (const file of files) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(root, 'bench', file)], {
    stdio: 'inherit',
    cwd: root,
  });
  if (r.status !== 0) {
    failed++;
    console.error(`bench ${file} failed with ${r.status ?? r.signal}`);
  }
}
process.exit(failed ? 1 : 0);
