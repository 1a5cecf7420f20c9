#!/usr/bin/env node
// Runs the compiled tree (bin/build.js) when it matches the sources; otherwise the TypeScript
// sources directly through tsx, so `npx damlink` works right after `npm install` and after an edit.
import { current } from './build.js';

const compiled = current('daemon/cli.ts');
if (compiled) {
  // Errors' stacks name the TypeScript sources' lines.
  process.setSourceMapsEnabled(true);
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../daemon/cli.ts');
}
