// Static files of the viewer (daemon/web/): `/` → index.html, `/arbiter` → arbiter.html, the rest
// by path — never outside the web root.
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { Validators } from './conditional.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.pdn': 'application/x-draughts-pdn; charset=utf-8',
};

const ALIASES: Record<string, string> = {
  '/': 'index.html',
  '/arbiter': 'arbiter.html',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  validators: Validators;
}

/** The file a URL path names inside `root`, or undefined (missing, a directory, or outside). */
export async function staticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  let rel: string;
  try {
    rel = ALIASES[urlPath] ?? decodeURIComponent(urlPath).replace(/^\/+/, '');
  } catch {
    return undefined;
  }
  if (rel.includes('\0')) return undefined;
  const base = normalize(root + sep);
  const file = normalize(join(base, rel));
  if (!file.startsWith(base)) return undefined;
  try {
    const s = await stat(file);
    if (!s.isFile()) return undefined;
    const body = await readFile(file);
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const mtime = Math.floor(s.mtimeMs / 1000) * 1000;
    return {
      body,
      type,
      validators: { etag: `W/"${s.size.toString(36)}-${mtime.toString(36)}"`, lastModified: new Date(mtime) },
    };
  } catch {
    return undefined;
  }
}
