// Static files of the viewer (daemon/web/): `/` → index.html, `/arbiter` → arbiter.html, the rest
// by path — never outside the web root. A page that is not a whole document (no doctype) is put in
// the web root's layout.html: the head every page shares is written once there. Beside the web root,
// the few modules of the pure core the pages import as they are (CORE_MODULES).
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** URL path → file: plain JavaScript of the pure core that the server and the pages share. */
const CORE_MODULES: Record<string, string> = {
  '/src/tracker/alert-words.js': fileURLToPath(new URL('../../src/tracker/alert-words.js', import.meta.url)),
  '/firmware-protocol/fen-board.js': fileURLToPath(
    new URL('../../firmware-protocol/fen-board.js', import.meta.url),
  ),
};

export interface StaticFile {
  body: Buffer;
  type: string;
  validators: Validators;
}

/** The file a URL path names inside `root` or in CORE_MODULES; undefined if missing, a directory or outside. */
export async function staticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  const base = normalize(root + sep);
  const file = Object.hasOwn(CORE_MODULES, urlPath) ? CORE_MODULES[urlPath] : inRoot(base, urlPath);
  if (file === undefined) return undefined;
  try {
    const s = await stat(file);
    if (!s.isFile()) return undefined;
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const read = await readFile(file);
    const page = type.startsWith('text/html') ? await inLayout(base, read) : undefined;
    const body = page?.body ?? read;
    const mtime = Math.floor(Math.max(s.mtimeMs, page?.mtimeMs ?? 0) / 1000) * 1000;
    return {
      body,
      type,
      validators: {
        etag: `W/"${body.length.toString(36)}-${mtime.toString(36)}"`,
        lastModified: new Date(mtime),
      },
    };
  } catch {
    return undefined;
  }
}

function inRoot(base: string, urlPath: string): string | undefined {
  let rel: string;
  try {
    rel = ALIASES[urlPath] ?? decodeURIComponent(urlPath).replace(/^\/+/, '');
  } catch {
    return undefined;
  }
  if (rel.includes('\0')) return undefined;
  const file = normalize(join(base, rel));
  return file.startsWith(base) ? file : undefined;
}

const HEAD_SLOT = "<!-- the page's head -->";
const BODY_SLOT = "<!-- the page's body -->";

/**
 * A page put in the layout: what comes before its `<body>` goes into the layout's head, the rest
 * after it. Undefined for a whole document, or where the web root has no layout.
 */
async function inLayout(base: string, page: Buffer): Promise<{ body: Buffer; mtimeMs: number } | undefined> {
  const text = page.toString('utf8');
  if (/^\s*<!doctype/i.test(text)) return undefined;
  const file = join(base, 'layout.html');
  try {
    const [layout, s] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    const at = text.search(/<body[\s>]/);
    const head = at < 0 ? '' : text.slice(0, at).trim();
    const body = at < 0 ? text : text.slice(at);
    const html = layout.replace(HEAD_SLOT, () => head).replace(BODY_SLOT, () => body.trimEnd());
    return { body: Buffer.from(html), mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}
