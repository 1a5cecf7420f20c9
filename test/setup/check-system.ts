// `npm test`'s pretest: checks the system packages the suite needs and installs the missing ones
// with apt-get when it can (root, apt-get present); otherwise stops at once with the one command to
// run, instead of a wall of failing tests.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SYSTEM_PACKAGES, type SystemPackage } from './system-packages.ts';

export type Plan =
  | { kind: 'ready' }
  | { kind: 'install'; packages: string[]; command: string[] }
  | { kind: 'stop'; message: string };

/** What to do about the `missing` packages on this host. */
export function plan(missing: readonly string[], host: { root: boolean; apt: boolean }): Plan {
  if (missing.length === 0) return { kind: 'ready' };
  const names = missing.join(' ');
  if (host.root && host.apt)
    return { kind: 'install', packages: [...missing], command: ['install', '-y', ...missing] };
  return {
    kind: 'stop',
    message: `the tests need ${missing.join(', ')}; run: sudo apt-get update && sudo apt-get install -y ${names}`,
  };
}

const onPath = (binary: string, path = process.env.PATH ?? ''): boolean =>
  path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, binary), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });

/** Present when its program is on PATH, else when dpkg says it is installed. */
export function isInstalled(pkg: SystemPackage): boolean {
  if (pkg.binary && onPath(pkg.binary)) return true;
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own field syntax, not a template
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg.name], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === 'install ok installed';
}

function main(): number {
  const missing = SYSTEM_PACKAGES.filter((p) => !isInstalled(p)).map((p) => p.name);
  const decided = plan(missing, { root: process.getuid?.() === 0, apt: onPath('apt-get') });
  if (decided.kind === 'ready') return 0;
  if (decided.kind === 'stop') {
    console.error(`damlink: ${decided.message}`);
    return 1;
  }
  console.error(`damlink: installing ${decided.packages.join(', ')} for the tests (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['-qq', ...decided.command],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) {
      console.error(`damlink: apt-get ${args.join(' ')} failed; run it yourself and retry`);
      return 1;
    }
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
