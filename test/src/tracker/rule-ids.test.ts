// RULE_IDS is the one list of rule ids: the alert messages, the simulator's injection, the web texts
// (browser JS, which cannot import it) and the rule digest all cover exactly it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INJECTABLE, OUTAGE_RULE_IDS } from '../../../simulator/inject.ts';
import { alertMessage } from '../../../src/tracker/messages.ts';
import { CLOCK_RULE_IDS, RULE_IDS } from '../../../src/tracker/types.ts';

// A dynamic import keeps the untyped browser module out of the type checker.
const webRules = (): Promise<{ RULE_TEXT: Record<string, string>; ruleText: (rule: string) => string }> =>
  import(new URL('../../../daemon/web/js/rules.js', import.meta.url).href);

const sorted = (ids: readonly string[]) => [...ids].sort();

describe('rule ids', () => {
  it('are unique', () => {
    expect(new Set(RULE_IDS).size).toBe(RULE_IDS.length);
  });

  it("the web's RULE_TEXT has a text for exactly these ids (none missing, none extra)", async () => {
    const { RULE_TEXT, ruleText } = await webRules();
    expect(sorted(Object.keys(RULE_TEXT))).toEqual(sorted(RULE_IDS));
    const fallback = ruleText('no-such-rule');
    for (const id of RULE_IDS) expect(ruleText(id), id).not.toBe(fallback);
  });

  it('the alert words have a title for exactly these ids (none missing, none extra)', async () => {
    const { ALERT_WORDS } = await import('../../../src/tracker/alert-words.js');
    const TITLE = 'rule.title.';
    const titled = Object.keys(ALERT_WORDS).filter((k) => k.startsWith(TITLE));
    expect(sorted(titled.map((k) => k.slice(TITLE.length)))).toEqual(sorted(RULE_IDS));
  });

  it('every id has its own alert title', () => {
    const titles = RULE_IDS.map((rule) => alertMessage(rule, { side: 'white' }));
    for (const [i, text] of titles.entries()) expect(text, RULE_IDS[i]).not.toMatch(/undefined/);
    expect(new Set(titles).size).toBe(RULE_IDS.length);
  });

  it('the simulator can inject every id the hands cause (the clock raises flag and flags, an outage gap)', () => {
    expect(sorted([...INJECTABLE, ...CLOCK_RULE_IDS, ...OUTAGE_RULE_IDS])).toEqual(sorted(RULE_IDS));
  });

  it('every article id is an article of the rule digest (docs/rules.md)', () => {
    const digest = readFileSync(new URL('../../../docs/rules.md', import.meta.url), 'utf8');
    // unknown-position and gap are no articles: the board or the record needs the arbiter's eye.
    for (const id of RULE_IDS.filter((r) => r !== 'unknown-position' && r !== 'gap')) {
      const article = new RegExp(`(?<![\\d.])${id.replaceAll('.', '\\.')}(?![\\d.])`);
      expect(digest, id).toMatch(article);
    }
  });
});

describe("an alert's English words", () => {
  // The pages say alerts from their params in the reader's language; the tracker writes the English
  // `message` (PDN comments, MQTT, logs). Both say it with alert-words.js: the pages through their
  // English table, which takes the words in, the tracker straight from it.
  it('the pages in English say every alert as the tracker writes it', async () => {
    const i18n = await import(new URL('../../../daemon/web/shared/i18n.js', import.meta.url).href);
    const { alertText } = await import(new URL('../../../daemon/web/js/rules.js', import.meta.url).href);
    await i18n.useLanguage?.('en');
    const facts = [
      { side: 'white' as const, move: '32-28', squares: [19, 23] },
      { side: 'black' as const },
      {},
    ];
    for (const rule of RULE_IDS)
      for (const f of facts) {
        const message = alertMessage(rule, f);
        const params = { ...f, ...(f.squares ? { squares: f.squares } : {}) };
        expect(alertText({ rule, params, message: '' }), `${rule} ${JSON.stringify(f)}`).toBe(message);
      }
  });
});
