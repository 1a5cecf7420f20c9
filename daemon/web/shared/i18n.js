// Texts in the reader's language: message tables in shared/i18n/<lang>.js (one file per language, the
// English table is the reference), `t(key, params)` to say one, and Intl for numbers and times.
// Importing this module does nothing by itself (Node tests import it too).
import { fill } from '../../../src/tracker/alert-words.js';
import en from './i18n/en.js';

// Placeholders are filled as the alerts' words are (the server writes its own pages with it too).
export { fill };

/** The languages the pages ship with; a daemon tells the page its own list (see pageLanguages). */
export const BUILT_IN = ['en', 'nl', 'pl', 'fr', 'ru'];
const LANG_KEY = 'damlink-lang';

let current = { code: 'en', table: en };

/**
 * The text of `key` with `{name}` replaced by `params.name`. A key missing in the language falls
 * back to English; a key missing there too is shown as it is, so a test can spot it.
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 */
export function t(key, params) {
  return fill(current.table.messages[key] ?? en.messages[key] ?? key, params);
}

/** A side's name in the page's language. */
export const sideName = (side) => t(`side.${side}`);

export function language() {
  return current.code;
}

/**
 * The languages this daemon serves: the server writes them on <html> as `data-languages="en=English,
 * nl=Nederlands"` (one per file in shared/i18n/); the built-in ones when the page is served otherwise.
 */
export function pageLanguages(doc = document) {
  const listed = Object.keys(languageNames(doc));
  return listed.length ? listed : BUILT_IN;
}

/** Each served language's own name, by code. */
export function languageNames(doc = document) {
  const pairs = (doc.documentElement.dataset.languages ?? '').split(',').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => pair.split('=')));
}

/**
 * The reader's language: `?lang=`, then the menu's last choice, then what the server negotiated
 * from Accept-Language, then the browser's languages; English when none is served.
 * @param {{ search: string, stored?: string | null, negotiated?: string,
 *   browser?: readonly string[], available: readonly string[] }} o
 * @returns {string}
 */
export function chooseLanguage({ search, stored, negotiated, browser, available }) {
  const wanted = [new URLSearchParams(search).get('lang'), stored, negotiated, ...(browser ?? [])];
  for (const w of wanted) {
    if (!w) continue;
    const code = w.toLowerCase();
    if (available.includes(code)) return code;
    const base = code.split('-')[0];
    if (available.includes(base)) return base;
  }
  return 'en';
}

/** Loads the reader's language for this page and sets <html lang>. */
export async function loadLanguage(win = window) {
  const doc = win.document;
  const code = chooseLanguage({
    search: win.location.search,
    stored: win.localStorage.getItem(LANG_KEY),
    negotiated: doc.documentElement.dataset.negotiated,
    browser: win.navigator.languages,
    available: pageLanguages(doc),
  });
  await useLanguage(code);
  doc.documentElement.lang = current.code;
  return current.code;
}

export async function useLanguage(code) {
  try {
    const table = code === 'en' ? en : (await import(`./i18n/${code}.js`)).default;
    current = { code, table };
  } catch {
    // A table that does not load: the page still works, in English.
    current = { code: 'en', table: en };
  }
}

/** The menu's choice is kept for the next visit; `?lang=` would win over it, so it goes. */
export function rememberLanguage(code, win = window) {
  win.localStorage.setItem(LANG_KEY, code);
  const url = new URL(win.location.href);
  url.searchParams.delete('lang');
  win.location.replace(url.href);
}

/** Fills `data-i18n` (text) and `data-i18n-<attribute>` (attributes) of static markup. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('*')) {
    for (const name of el.getAttributeNames()) {
      if (name.startsWith('data-i18n-')) el.setAttribute(name.slice(10), t(el.getAttribute(name)));
    }
  }
}

/** Numbers and times in the reader's conventions. */
export function formatNumber(n, options) {
  return new Intl.NumberFormat(current.code, options).format(n);
}

/** The page language's decimal mark (`,` in Polish, Dutch, French, Russian). */
export function decimalMark() {
  return formatNumber(0.5).replace(/\d/g, '') || '.';
}

/** Wall-clock time of an event (`t` in epoch ms) as `14:03:27` (or the language's own way). */
export function formatTimeOfDay(t) {
  if (typeof t !== 'number' || t < 1e11) return String(t ?? '');
  return new Intl.DateTimeFormat(current.code, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(t));
}

/** A PDN date (`2026.11.29`, parts may be `??`) as the language writes dates; as it is otherwise. */
export function formatPdnDate(date) {
  const m = /^(\d{4})\.(\d{2})\.(\d{2})$/.exec(date ?? '');
  if (!m) return date ?? '';
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(current.code, { dateStyle: 'long', timeZone: 'UTC' }).format(day);
}
