// The console's calibration page in real headless Chromium, against the real server and a daemon's
// hub connected over TCP to a scrambled simulated DGT board: the test reads each prompt off the
// page, checks the text and the marked square, and does what it says on the board. The screenshots
// are the ones docs/first-board.md shows.
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profilePath, readProfileFile } from '../../../daemon/calibration/profiles.ts';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import { type Prompt, promptText } from '../../../firmware-protocol/index.ts';
import { answerPrompt } from '../../../simulator/index.ts';
import {
  type CalibratingDaemon,
  calibratingDaemon,
  SCRAMBLED,
} from '../calibration/fixtures/calibrating-daemon.ts';
import { launchBrowser, type TestBrowser, watchErrors } from './fixtures/browser.ts';
import { WEB_ROOT } from './fixtures/serve.ts';

const TOKEN = 'calibrate-arbiter-5';
const IMAGES = join(import.meta.dirname, '../../../docs/images');
/** The same data directory on every machine and checkout: the path the last screenshot shows stays put. */
const DATA_DIR = join(tmpdir(), 'damlink-calibrate-page');

let daemon: CalibratingDaemon;
let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR);
  // A browser shares this process: a board is silent after 3 s here, not the controller tests'
  // 0.4 s, so a loaded machine's pauses do not show the board silent when the page asks.
  daemon = await calibratingDaemon(DATA_DIR, { silentMs: 3000, lostMs: 6000 });
  server = await startServer({ hub: daemon.hub, port: 0, tokens: { arbiter: TOKEN }, webRoot: WEB_ROOT });
  browser = await launchBrowser();
  page = await browser.newPage();
  errors = watchErrors(page);
  mkdirSync(IMAGES, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await daemon?.stop();
});

/**
 * The prompt the page shows now, as the session sent it (read back from the page), read in one go:
 * attributes read one by one could straddle the page's move to the next prompt.
 */
async function shownPrompt(): Promise<Prompt & { shown: string; marked: string[] }> {
  // A string: the tests compile without the DOM's types.
  const read = (await page.evaluate(`(() => {
    const el = document.querySelector('#prompt');
    return {
      action: el.getAttribute('data-action'),
      square: el.getAttribute('data-square'),
      piece: el.getAttribute('data-piece'),
      shown: el.textContent ?? '',
      progress: document.querySelector('#progress-text')?.textContent ?? '',
      marked: [...document.querySelectorAll('#picture .sq.mark')].map((e) => e.getAttribute('data-square')),
    };
  })()`)) as {
    action: string | null;
    square: string | null;
    piece: string | null;
    shown: string;
    progress: string;
    marked: string[];
  };
  const square = Number(read.square) || undefined;
  const piece = read.piece || undefined;
  const [, n, of] = /(\d+)\D+(\d+)/.exec(read.progress) ?? [];
  const prompt = {
    action: read.action as Prompt['action'],
    ...(square ? { square } : {}),
    ...(piece ? { piece } : {}),
    n: Number(n),
    of: Number(of),
  } as unknown as Prompt;
  return { ...prompt, text: promptText(prompt), shown: read.shown, marked: read.marked };
}

/** Waits for prompt `n` (or the end) to be on the page. */
const nextShown = (n: number) =>
  expect
    .poll(
      async () =>
        (await page.locator('#result').isVisible()) ||
        ((await page.locator('#prompt').getAttribute('data-action')) !== null &&
          new RegExp(`^\\D*${n}\\D`).test((await page.locator('#progress-text').textContent()) ?? '')),
      { timeout: 20_000, interval: 10 },
    )
    .toBe(true);

/** Waits (up to 15 s: the page follows the daemon) until `locator`'s text is `text`. */
const textBecomes = (locator: Locator, text: string) =>
  expect.poll(() => locator.textContent(), { timeout: 15_000 }).toBe(text);

const shot = (name: string) => page.screenshot({ path: join(IMAGES, name), fullPage: true });

describe('calibration page', () => {
  it('calibrates a scrambled board prompt by prompt, then shows the profile saved where `damlink run` looks', async () => {
    await page.goto(`${server.url}/calibrate.html#token=${TOKEN}`);
    expect(page.url()).not.toContain('token=');
    const option = page.locator('#board-select option:not([disabled])');
    await expect.poll(() => option.count(), { timeout: 15_000 }).toBe(1);
    // The list may come before the board's first report: its state follows.
    await textBecomes(option, 'Board 1 — 00001 (live)');
    await page.locator('#start').click();

    const seen: string[] = [];
    for (let n = 1; ; n++) {
      await nextShown(n);
      if (!(await page.locator('#result').isHidden())) break;
      const prompt = await shownPrompt();
      // What the page says is the wizard's prompt, the square it names marked on the board.
      expect(prompt.shown).toBe(prompt.text);
      expect(prompt.marked).toEqual('square' in prompt ? [String(prompt.square)] : []);
      seen.push(prompt.action);
      if (n === 1) {
        expect(prompt.shown).toBe('Set up the start position (Black on the first rows, White on the last).');
        expect(await page.locator('#board-title').textContent()).toBe('Board 1 · serial number 00001');
        await shot('calibrate-1-start.png');
      }
      if (n === 22) {
        expect(prompt.shown).toBe('Put a white man on 21, then take it away.');
        expect(prompt.marked).toEqual(['21']);
        expect(await page.locator('#learned-text').textContent()).toBe('20 of 50 squares found');
        // The man to put is drawn on the marked square.
        expect(await page.locator('#picture .sq.mark [data-piece]').getAttribute('data-piece')).toBe('w');
        await shot('calibrate-2-prompt.png');
      }
      if (prompt.action === 'check') continue;
      await answerPrompt(daemon.board.board, prompt, { speed: 10 });
    }
    expect(seen.filter((a) => a === 'lift-return' || a === 'put-remove')).toHaveLength(50);
    expect(seen.filter((a) => a === 'king')).toHaveLength(2);

    await textBecomes(page.locator('#result-title'), 'Board 1 calibrated');
    expect(await page.locator('#check').isVisible()).toBe(true);
    const field = (name: string) => page.locator(`#summary [data-field="${name}"]`).textContent();
    expect(await field('serial')).toBe('00001');
    expect(await field('order')).toBe('an order of its own, learned square by square');
    expect(await field('pieces')).toBe('w 0x04 · b 0x01 · W 0x0a · B 0x07 · kings are crowned pieces');
    const file = profilePath(daemon.dataDir, '00001');
    expect(await field('file')).toBe(file);
    const saved = readProfileFile(file);
    expect(saved.ok && saved.value.fieldMap).toEqual(SCRAMBLED.fieldMap?.fields50);
    await shot('calibrate-3-saved.png');
    expect(errors).toEqual([]);
  }, 120_000);

  it('in Dutch: the prompt in Dutch, and a calibration cancelled says so and keeps the profile', async () => {
    await page.goto(`${server.url}/calibrate.html?lang=nl`);
    const option = page.locator('#board-select option:not([disabled])');
    await expect.poll(() => option.count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator('#start').textContent()).toBe('Kalibratie starten');
    await page.locator('#start').click();
    // The board stands in the start position already: the set-up is done at once.
    await nextShown(2);
    await textBecomes(page.locator('#prompt'), 'Til de schijf op 1 op en zet hem terug.');
    expect((await shownPrompt()).marked).toEqual(['1']);
    await page.locator('#cancel').click();
    await textBecomes(page.locator('#result-title'), 'Bord 1: geen profiel geschreven');
    expect(await page.locator('#failure').getAttribute('data-code')).toBe('cancelled');
    expect(await page.locator('#failure').textContent()).toContain('De kalibratie is afgebroken.');
    expect(readProfileFile(profilePath(daemon.dataDir, '00001')).ok).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);
});
