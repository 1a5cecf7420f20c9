#!/usr/bin/env node
// `npm run build` (run by `npm install` too): the TypeScript sources compiled to JavaScript in dist/,
// the same tree with `.js` files, so `damlink` starts without compiling its modules one by one
// through tsx's loader thread (docs/performance.md).
// `damlink` runs dist/ only while it matches the sources file for file (`current`); otherwise it runs
// the sources through tsx, as before: an edited tree never runs stale code.
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The folders the program runs from (tests and benches stay out). */
export const FOLDERS = ['daemon', 'src', 'firmware-protocol', 'simulator'];
/** Served as they are, every file of it: the pages, their scripts, styles and languages. */
const WEB = join('daemon', 'web');
const OUT = 'dist';
const MANIFEST = 'manifest.json';

/**
 * The files compiled (`.ts`) or copied (`.js`, which modules import beside them; the web pages'
 * files), by path.
 */
export function sources(root = ROOT) {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (path.startsWith(WEB) || (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')))
        found.push(path);
    }
  };
  for (const folder of FOLDERS) walk(folder);
  return found.sort();
}

/** What a source is known by: it changed when either differs. */
const stamp = (root, path) => {
  const s = statSync(join(root, path));
  return `${s.mtimeMs}:${s.size}`;
};

/**
 * A module's relative imports of `.ts` files (after `from`, `import` or `import(`) pointed at the
 * compiled `.js` files. Nothing else is touched: a `.ts` path given to a worker is the caller's.
 */
export function rewriteImports(code) {
  return code.replace(
    /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'])(\.{1,2}\/[^"'\n]*)\.ts\2/g,
    '$1$2$3.js$2',
  );
}

/** Written aside and renamed: a daemon running from dist/ may import a module meanwhile. */
function write(target, content) {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp-${process.pid}`, content);
  renameSync(`${target}.tmp-${process.pid}`, target);
}

/** Compiles the sources into dist/ and writes its manifest last. */
export async function build(root = ROOT) {
  const { transform } = await import('esbuild');
  const started = performance.now();
  const files = sources(root);
  const manifest = {};
  // esbuild compiles the files side by side; each is written as it comes.
  await Promise.all(
    files.map(async (path) => {
      manifest[path] = stamp(root, path);
      if (path.startsWith(WEB)) {
        write(join(root, OUT, path), readFileSync(join(root, path)));
        return;
      }
      const source = readFileSync(join(root, path), 'utf8');
      const code = path.endsWith('.ts')
        ? rewriteImports(
            (
              await transform(source, {
                loader: 'ts',
                format: 'esm',
                target: 'node20',
                sourcemap: 'inline',
                sourcefile: relative(join(root, OUT, dirname(path)), join(root, path)),
              })
            ).code,
          )
        : rewriteImports(source);
      write(join(root, OUT, path.replace(/\.ts$/, '.js')), code);
    }),
  );
  write(join(root, OUT, MANIFEST), JSON.stringify(manifest));
  return { files: files.length, ms: performance.now() - started };
}

/**
 * The compiled entry `entry` (a source path, e.g. `daemon/cli.ts`) when dist/ matches the sources:
 * every file it was built from is unchanged, none is gone, none was added.
 */
export function current(entry, root = ROOT) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(root, OUT, MANIFEST), 'utf8'));
  } catch {
    return undefined;
  }
  const files = sources(root);
  if (files.length !== Object.keys(manifest).length) return undefined;
  for (const path of files) {
    if (manifest[path] !== stamp(root, path)) return undefined;
  }
  return pathToFileURL(join(root, OUT, entry.replace(/\.ts$/, '.js'))).href;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { files, ms } = await build();
  console.log(`damlink: ${files} files compiled into ${OUT}/ in ${Math.round(ms)} ms`);
}
