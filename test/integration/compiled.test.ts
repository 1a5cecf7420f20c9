// The compiled tree (bin/build.js): what `damlink` runs once `npm install` built it, and never
// when it no longer matches the sources.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, current, FOLDERS, rewriteImports, sources } from '../../bin/build.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('rewriteImports', () => {
  it('points relative imports of .ts files at the compiled .js, and nothing else', () => {
    const code = [
      'import { a } from "./a.ts";',
      'export * from "../b/c.ts";',
      "import './side.ts';",
      'const m = await import("../lazy.ts");',
      "const w = await import('./worker.ts');",
      'import x from "pkg.ts";',
      'const u = new URL("./thread.ts", import.meta.url);',
      'const s = "./not-an-import.ts";',
      'import y from "./data.json";',
    ].join('\n');
    expect(rewriteImports(code).split('\n')).toEqual([
      'import { a } from "./a.js";',
      'export * from "../b/c.js";',
      "import './side.js';",
      'const m = await import("../lazy.js");',
      "const w = await import('./worker.js');",
      'import x from "pkg.ts";',
      'const u = new URL("./thread.ts", import.meta.url);',
      'const s = "./not-an-import.ts";',
      'import y from "./data.json";',
    ]);
  });
});

describe('the compiled tree', () => {
  let root: string;
  const damlink = (...args: string[]) =>
    spawnSync(process.execPath, [join(root, 'bin', 'damlink.js'), ...args], { encoding: 'utf8' });
  beforeAll(async () => {
    // A copy of the package: building here leaves the checkout's own dist/ alone.
    root = mkdtempSync(join(tmpdir(), 'damlink-compiled-'));
    for (const folder of [...FOLDERS, 'bin'])
      cpSync(join(ROOT, folder), join(root, folder), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    await build(root);
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('holds every module as JavaScript, the web pages beside them', () => {
    const entry = current('daemon/cli.ts', root);
    expect(entry).toBe(`file://${join(root, 'dist', 'daemon', 'cli.js')}`);
    const compiled = readFileSync(join(root, 'dist', 'daemon', 'controller.js'), 'utf8');
    expect(compiled).not.toMatch(/from\s*"\.{1,2}\/[^"]*\.ts"/);
    expect(compiled).toMatch(/from\s*"\.\/live-board\.js"/);
    expect(readdirSync(join(root, 'dist', 'daemon', 'web'))).toEqual(
      readdirSync(join(ROOT, 'daemon', 'web')),
    );
  });

  it('runs: damlink answers from it', () => {
    // A mark in the compiled entry alone: seen only when damlink ran dist/.
    const entry = join(root, 'dist', 'daemon', 'cli.js');
    writeFileSync(entry, `process.stderr.write('compiled\\n');\n${readFileSync(entry, 'utf8')}`);
    const r = damlink('--version');
    expect(r.stderr).toBe('compiled\n');
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is not run once a source changed, was added or removed', async () => {
    expect(current('daemon/cli.ts', root)).toBeDefined();
    const source = join(root, 'src', 'engine', 'fen.ts');
    const later = new Date(Date.now() + 60_000);
    utimesSync(source, later, later);
    expect(current('daemon/cli.ts', root)).toBeUndefined();
    // Still runs, from the sources (the compiled entry's mark is not printed).
    const r = damlink('--version');
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(r.stderr).not.toContain('compiled');
    await build(root);
    expect(current('daemon/cli.ts', root)).toBeDefined();
    cpSync(source, join(root, 'src', 'engine', 'extra.ts'));
    expect(current('daemon/cli.ts', root)).toBeUndefined();
    rmSync(join(root, 'src', 'engine', 'extra.ts'));
    expect(current('daemon/cli.ts', root)).toBeDefined();
    rmSync(join(root, 'daemon', 'web', 'README.md'));
    expect(current('daemon/cli.ts', root)).toBeUndefined();
  });
});

describe('modules that name a file beside them', () => {
  // Compiled, a module is a .js file in dist/: a `.ts` file named by URL is not beside it there.
  it('never name a .ts file by URL', () => {
    const offenders = (sources() as string[]).filter(
      (path) =>
        /\.(ts|js)$/.test(path) &&
        /new URL\(\s*['"`][^'"`]*\.ts['"`]\s*,\s*import\.meta\.url/.test(
          readFileSync(join(ROOT, path), 'utf8'),
        ),
    );
    expect(offenders).toEqual([]);
  });
});
