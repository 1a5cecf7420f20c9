// The message tables (daemon/web/shared/i18n/*.js): every language says everything English says, with
// the same placeholders; languages are chosen and negotiated as docs/api.md says.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { negotiate } from '../../../daemon/server/languages.ts';
import { RULE_IDS } from '../../../src/tracker/types.ts';
import { WEB_ROOT } from './fixtures/serve.ts';
import { web } from './fixtures/web-module.ts';

type Table = { name: string; messages: Record<string, string> };
const LANGS = readdirSync(join(WEB_ROOT, 'shared', 'i18n'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => f.slice(0, -3));
const table = async (lang: string): Promise<Table> => (await web(`i18n/${lang}.js`)).default;
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('message tables', () => {
  it('Polish names the board one way (plansza), not two', async () => {
    const text = readFileSync(join(import.meta.dirname, '../../../daemon/web/shared/i18n/pl.js'), 'utf8');
    expect(text).not.toMatch(/warcabnic/i);
    expect(text).toMatch(/Plansza \{board\}/);
  });

  it('ships English, Dutch, Polish, French and Russian', () => {
    expect(LANGS.sort()).toEqual(['en', 'fr', 'nl', 'pl', 'ru']);
  });

  it.each(LANGS)('%s has every key of English, no other, each with the same placeholders', async (lang) => {
    const en = (await table('en')).messages;
    const t = await table(lang);
    expect(typeof t.name).toBe('string');
    expect(Object.keys(t.messages).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) {
      expect(t.messages[key].trim(), `${lang} ${key}`).not.toBe('');
      expect(placeholders(t.messages[key]), `${lang} ${key}`).toEqual(placeholders(text));
    }
  });

  it('every rule id of the tracker has a title and a text in every language', async () => {
    for (const lang of LANGS) {
      const { messages } = await table(lang);
      for (const id of RULE_IDS) {
        expect(messages[`rule.title.${id}`], `${lang} ${id}`).toBeTruthy();
        expect(messages[`rule.text.${id}`], `${lang} ${id}`).toBeTruthy();
      }
    }
  });

  it('every key the pages use is in the English table', async () => {
    const en = (await table('en')).messages;
    const dir = join(WEB_ROOT, 'js');
    const { readFileSync } = await import('node:fs');
    const sources = [
      ...readdirSync(dir)
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFileSync(join(dir, f), 'utf8')),
      ...readdirSync(WEB_ROOT)
        .filter((f) => f.endsWith('.html'))
        .map((f) => readFileSync(join(WEB_ROOT, f), 'utf8')),
    ].join('\n');
    const used = new Set([
      ...[...sources.matchAll(/\bt\('([\w.-]+)'/g)].map((m) => m[1]),
      ...[...sources.matchAll(/data-i18n(?:-[\w-]+)?="([\w.-]+)"/g)].map((m) => m[1]),
    ]);
    expect(used.size).toBeGreaterThan(100);
    expect([...used].filter((k) => !(k in en))).toEqual([]);
  });
});

describe('alerts in the reader’s language', () => {
  it('says an alert from its rule and params, in each language, with no placeholder left', async () => {
    const i18n = await web('i18n.js');
    const { alertText } = await web('rules.js');
    const alert = {
      rule: '4.11',
      side: 'black',
      params: { side: 'black', move: '19x28', squares: [12, 18] },
      message: 'x',
    };
    await i18n.useLanguage('en');
    expect(alertText(alert)).toBe(
      '4.11 Black: captured pieces removed out of order (19x28; squares 12, 18).',
    );
    await i18n.useLanguage('nl');
    expect(alertText(alert)).toBe(
      '4.11 Zwart: geslagen stukken in de verkeerde volgorde weggenomen (19x28; velden 12, 18).',
    );
    for (const lang of LANGS) {
      await i18n.useLanguage(lang);
      for (const rule of RULE_IDS) {
        const text = alertText({ ...alert, rule });
        expect(text, `${lang} ${rule}`).not.toMatch(/[{}]|rule\.|alert\./);
      }
    }
    // `flags` names no side: the title alone, capitalised, in every language.
    for (const lang of LANGS) {
      await i18n.useLanguage(lang);
      const text = alertText({ rule: 'flags', params: {}, message: 'x' });
      expect(text, lang).not.toMatch(/[{}]|side\.|alert\./);
      expect(text[0], lang).toBe(text[0].toUpperCase());
      expect(text, lang).not.toMatch(/^(White|Black|Wit|Zwart|Białe|Czarne|Blancs|Noirs|Белые|Чёрные)/);
    }
    await i18n.useLanguage('en');
    expect(alertText({ rule: 'flags', params: {}, message: 'x' })).toBe('Both flags fell.');
    // Without params (older alerts) the English message stands.
    expect(alertText({ rule: '5.4.6', message: 'White played 38-33' })).toBe('White played 38-33');
    await i18n.useLanguage('en');
  });

  it('the English text from params is the tracker’s own message, from the one table of alert words', async () => {
    const { alertMessage } = await import('../../../src/tracker/messages.ts');
    const { ALERT_WORDS } = await import('../../../src/tracker/alert-words.js');
    const { alertText } = await web('rules.js');
    const en = (await table('en')).messages;
    for (const [key, text] of Object.entries(ALERT_WORDS)) expect(en[key], key).toBe(text);
    for (const rule of RULE_IDS) {
      const params = { side: 'white' as const, move: '32-28', squares: [7, 9] };
      const message = alertMessage(rule, params);
      expect(alertText({ rule, params }), rule).toBe(message);
      expect(message, rule).toContain(en[`rule.title.${rule}`]);
      const detail = en[`rule.detail.${rule}`];
      if (detail) expect(message.endsWith(` ${detail}`), rule).toBe(true);
    }
  });
});

describe('choosing the language', () => {
  it('?lang= first, then the menu’s choice, the server’s negotiation, the browser; English otherwise', async () => {
    const { chooseLanguage } = await web('i18n.js');
    const available = ['en', 'nl', 'pl', 'fr', 'ru'];
    const base = { search: '', stored: null, negotiated: undefined, browser: [], available };
    expect(chooseLanguage({ ...base, search: '?lang=pl', stored: 'fr', browser: ['nl'] })).toBe('pl');
    expect(chooseLanguage({ ...base, stored: 'fr', negotiated: 'nl' })).toBe('fr');
    expect(chooseLanguage({ ...base, negotiated: 'nl', browser: ['ru'] })).toBe('nl');
    expect(chooseLanguage({ ...base, browser: ['de-DE', 'fr-BE'] })).toBe('fr');
    expect(chooseLanguage({ ...base, search: '?lang=xx', browser: ['de'] })).toBe('en');
  });

  it('negotiates Accept-Language by weight, falling back from a region to its language', () => {
    const served = ['en', 'fr', 'nl', 'pl', 'ru'];
    expect(negotiate('nl', served)).toBe('nl');
    expect(negotiate('de-DE,de;q=0.9,fr-CA;q=0.8,en;q=0.5', served)).toBe('fr');
    expect(negotiate('en;q=0.2, ru;q=0.9', served)).toBe('ru');
    expect(negotiate('de, pt-BR', served)).toBeUndefined();
    expect(negotiate('nl;q=0, pl', served)).toBe('pl');
    expect(negotiate(undefined, served)).toBeUndefined();
  });
});

describe('Intl formats', () => {
  it('writes PDN dates and numbers the reader’s way', async () => {
    const i18n = await web('i18n.js');
    await i18n.useLanguage('nl');
    expect(i18n.formatPdnDate('2026.11.29')).toBe('29 november 2026');
    expect(i18n.formatNumber(1.5, { minimumFractionDigits: 2 })).toBe('1,50');
    await i18n.useLanguage('en');
    expect(i18n.formatPdnDate('2026.11.29')).toBe('November 29, 2026');
    expect(i18n.formatPdnDate('2026.??.??')).toBe('2026.??.??');
  });
});

describe('dispute steps (steps.js)', () => {
  it('follows lifts and puts: the board after each event, and the pieces in the hand until the press', async () => {
    const { disputeSteps } = await web('steps.js');
    const events = [
      { t: 10, type: 'lift', square: 32 },
      { t: 20, type: 'tick' },
      { t: 30, type: 'put', square: 3, piece: 'W' },
      { t: 40, type: 'lift', square: 19 },
      { t: 50, type: 'lift', square: 28 },
      { t: 60, type: 'press', side: 'white' },
    ];
    const steps = disputeSteps('W:W32:B9,19,28', events);
    // Ticks are no step: start + 5 events.
    expect(steps.map((s: { event: { type: string } | null }) => s.event?.type ?? 'start')).toEqual([
      'start',
      'lift',
      'put',
      'lift',
      'lift',
      'press',
    ]);
    const at = (i: number) => Object.fromEntries(steps[i].pieces);
    expect(at(0)).toEqual({ 32: 'w', 9: 'b', 19: 'b', 28: 'b' });
    expect(steps[1].hand).toEqual([{ square: 32, piece: 'w' }]);
    // The man put down on the back row is crowned: the one in the hand.
    expect(at(2)).toEqual({ 3: 'W', 9: 'b', 19: 'b', 28: 'b' });
    expect(steps[2].hand).toEqual([]);
    expect(steps[4].hand).toEqual([
      { square: 19, piece: 'b' },
      { square: 28, piece: 'b' },
    ]);
    expect(at(4)).toEqual({ 3: 'W', 9: 'b' });
    expect(steps[5].hand).toEqual([]);
  });
});

describe('reconnection (connection.js)', () => {
  it('spreads the wait over ±50 % of the backoff step', async () => {
    const { retryDelay } = await web('connection.js');
    expect(retryDelay(1000, () => 0)).toBe(500);
    expect(retryDelay(1000, () => 0.999)).toBe(1499);
    expect(retryDelay(250, () => 0.5)).toBe(250);
  });
});
