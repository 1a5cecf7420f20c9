// The wall sheets as printed (headless Chromium, print media): every group's table of a sheet has
// the same column widths whatever its names, the screen's links are not printed, and a published
// copy (no site stylesheet beside it) is laid out the same.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StandingsDocument, standingsPage } from '../../../daemon/views/standings.ts';
import { VALUED_TIEBREAKS } from '../../../src/tournament/index.ts';
import en from '../../../daemon/web/shared/i18n/en.js';
import { launchBrowser, type TestBrowser } from './fixtures/browser.ts';

let browser: TestBrowser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
});
afterAll(async () => browser?.close());

const row = (rank: number, name: string) => ({
  rank,
  start: rank,
  name,
  points: 10 - rank,
  tiebreaks: Object.fromEntries(VALUED_TIEBREAKS.map((k) => [k, rank * 3])) as never,
});

const doc: StandingsDocument = {
  round: 3,
  event: 'Open',
  groups: [
    {
      group: 'Seniors',
      rows: [row(1, 'Schwarzman-Kowalczykiewicz, Alexander Maximilian'), row(2, 'Bos, E')],
    },
    { group: 'Juniors', rows: [row(1, 'Li, A'), row(2, 'Wu, B')] },
  ],
};

/** The widths of each table's header cells, as laid out. */
const widths = (p: Page) =>
  p.evaluate(
    `[...document.querySelectorAll('table')].map((t) =>
      [...t.querySelectorAll('thead th')].map((th) => Math.round(th.getBoundingClientRect().width)))`,
  ) as Promise<number[][]>;

describe('printed wall sheets', () => {
  it('the standings: both groups in the same columns, the "As JSON" link not printed', async () => {
    await page.setViewportSize({ width: 794, height: 1123 });
    // As a published copy is read: no /style.css to load.
    await page.setContent(standingsPage(doc, '', { code: 'en', messages: en.messages }));
    await page.emulateMedia({ media: 'print' });
    const [seniors, juniors] = await widths(page);
    expect(seniors.length).toBe(4 + VALUED_TIEBREAKS.length);
    expect(juniors).toEqual(seniors);
    expect(await page.locator('a[href^="standings.json"]').isVisible()).toBe(false);
    await page.emulateMedia({ media: 'screen' });
    expect(await page.locator('a[href^="standings.json"]').isVisible()).toBe(true);
  });
});
