// The pages' languages: one message table per file in <webRoot>/shared/i18n/, so adding a language is
// adding a file. The HTML pages go out with the language Accept-Language asks for and the list of
// languages on <html>, for the page to choose from (docs/api.md). Pages the server writes itself
// (the standings) take their words from the same tables.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chooseLanguage } from '../web/shared/i18n.js';
import type { StaticFile } from './static.ts';

/** The pages that ship with the daemon: their tables serve the server's own pages without a web root. */
export const BUILT_IN_WEB_ROOT = fileURLToPath(new URL('../web', import.meta.url));

const TABLE_FILE = /^([a-z]{2,3}(?:-[a-z0-9]{2,8})?)\.js$/;

import type { Messages } from '../views/standings.ts';

export type { Messages };

export interface PageLanguage {
  code: string;
  name: string;
  messages: Messages;
}

/** `nl-BE;q=0.9, en;q=0.5` → the first served language by weight (a region falls back to its base). */
export function negotiate(header: string | undefined, served: readonly string[]): string | undefined {
  if (!header) return undefined;
  const wanted = header
    .split(',')
    .map((part, i) => {
      const [tag, ...rest] = part.trim().toLowerCase().split(';');
      const q = rest.map((r) => /^\s*q=([\d.]+)\s*$/.exec(r)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), i };
    })
    .filter((w) => w.tag && w.q > 0 && Number.isFinite(w.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of wanted) {
    if (served.includes(tag)) return tag;
    const base = tag.split('-')[0];
    if (served.includes(base)) return base;
  }
  return undefined;
}

export class PageLanguages {
  private list: Promise<PageLanguage[]> | undefined;

  constructor(private readonly webRoot: string) {}

  /** The tables found (read once: they ship with the daemon). */
  languages(): Promise<PageLanguage[]> {
    this.list ??= this.read();
    return this.list;
  }

  private async read(): Promise<PageLanguage[]> {
    const dir = join(this.webRoot, 'shared', 'i18n');
    const files = await readdir(dir).catch(() => [] as string[]);
    const found: PageLanguage[] = [];
    for (const file of files.sort()) {
      const code = TABLE_FILE.exec(file)?.[1];
      if (!code) continue;
      try {
        const table = (await import(pathToFileURL(join(dir, file)).href)).default as {
          name?: unknown;
          messages?: unknown;
        };
        const messages =
          typeof table?.messages === 'object' && table.messages ? (table.messages as Messages) : {};
        found.push({ code, name: typeof table?.name === 'string' ? table.name : code, messages });
      } catch {
        // A table that does not load is not offered; the page falls back to English.
      }
    }
    return found;
  }

  /**
   * The language of a page the server writes, chosen as the pages choose (`?lang=` first, then
   * Accept-Language), and its messages with English where the language lacks a key.
   */
  async forRequest(search: string, acceptLanguage: string | undefined) {
    const served = await this.languages();
    const available = served.map((l) => l.code);
    const code = chooseLanguage({ search, negotiated: negotiate(acceptLanguage, available), available });
    const english = served.find((l) => l.code === 'en')?.messages ?? {};
    const messages = { ...english, ...served.find((l) => l.code === code)?.messages };
    return { code, messages };
  }

  /** A static file as answered: HTML pages in the language asked for (and `Vary` saying so). */
  async answer(file: StaticFile, acceptLanguage: string | undefined) {
    const page = file.type.startsWith('text/html') ? await this.page(file, acceptLanguage) : undefined;
    const { type, body, validators } = page ?? file;
    return { status: 200, type, body, validators, ...(page ? { vary: 'Accept-Language' } : {}) };
  }

  /** An HTML page in the language asked for: `lang`, the negotiated code and the served list on <html>. */
  async page(file: StaticFile, acceptLanguage: string | undefined): Promise<StaticFile> {
    const served = await this.languages();
    if (served.length === 0) return file;
    const code =
      negotiate(
        acceptLanguage,
        served.map((l) => l.code),
      ) ?? 'en';
    const list = served
      .map((l) => `${l.code}=${l.name}`)
      .join(',')
      .replace(/[&"<>]/g, '');
    const html = file.body
      .toString('utf8')
      .replace(
        /<html lang="[^"]*">/,
        `<html lang="${code}" data-negotiated="${code}" data-languages="${list}">`,
      );
    const etag = file.validators.etag.replace(/"$/, `-${code}"`);
    return { ...file, body: Buffer.from(html), validators: { ...file.validators, etag } };
  }
}
