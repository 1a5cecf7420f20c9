// The pages for the people in the hall, in real headless Chromium: every language with no raw key,
// Accept-Language, dark mode, pictures, the dispute view of a real 4.11 case, and a console that
// keeps what the arbiter types while its rows update. Screenshots of every page in every language
// go to test-results/screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replayEvents } from '../../../daemon/commands/replay.ts';
import type { AlertRecord } from '../../../src/game/types.ts';
import { fen, run, Script, sequence } from '../../src/tracker/fixtures/hands.ts';
import { launchBrowser, type TestBrowser, watchErrors } from './fixtures/browser.ts';
import { boardProfile } from '../fixtures/board-profile.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { serve, type Served } from './fixtures/serve.ts';

const TOKEN = 'hall-arbiter-9';
const LANGS = ['en', 'nl', 'pl', 'fr', 'ru'];
const SHOTS = join(import.meta.dirname, '../../../test-results/screenshots');
/** A profile as a calibration learns it (for the calibration page's summary). */
const CALIBRATED = boardProfile('SN-1', {
  protocol: 'dgt',
  pieces: { w: 1, b: 4, W: 7, B: 10 },
  kings: 'stacked',
});
const CASE_411 = 'W:W32:B9,19,28';

let hub: FakeHub;
let server: Served;
let browser: TestBrowser;
let base: string;
let alert411: AlertRecord;
let keys: string[];

/** A real 4.11 case: the tracker's own alert and the sensor events it came from, on board 4. */
function inject411(): AlertRecord {
  const start = fen(CASE_411);
  const script = new Script(start).play(sequence(start, '32x3'), 'white', { order: [19, 28, 9] });
  const [found] = run(script.events, { start }).alerts;
  const shift = hub.now;
  const events = script.events.map((e) => ({ ...e, t: e.t + shift }));
  hub.newGame(4, CASE_411);
  hub.sense(4, events);
  hub.move(4, '32x3');
  const alert = { ...found, t: found.t + shift, events: found.events.map((e) => ({ ...e, t: e.t + shift })) };
  hub.alert(4, alert);
  return hub.snapshot(4)!.alerts[0];
}

beforeAll(async () => {
  hub = new FakeHub([
    { board: 1, white: 'Baliakin, Alexander', black: 'Sijbrands, Ton', event: 'Hall Open' },
    { board: 2, white: 'Georgiev, Alexander', black: 'Schwarzman, Alexei' },
    { board: 3, white: 'Boomstra, Roel', black: 'Van IJzendoorn, Jan', variant: 'brazilian' },
    { board: 4, white: 'Kouassi, Jean', black: 'Ndiaye, Awa' },
  ]);
  for (const m of ['32-28', '19-23', '28x19', '14x23'])
    hub.move(1, m, { white: 5_400_000, black: 5_390_000 });
  hub.alert(2, {
    id: '1-5.4.6-1',
    rule: '5.4.6',
    ply: 1,
    side: 'white',
    message: '5.4.6 White: quiet move although a capture was possible (38-33).',
    params: { side: 'white', move: '38-33', squares: [28, 17] },
    events: [
      { t: 100_000, type: 'lift', square: 38 },
      { t: 100_400, type: 'put', square: 33, piece: 'w' },
    ],
  });
  alert411 = inject411();
  server = await serve(hub, { arbiter: TOKEN });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchBrowser();
  mkdirSync(SHOTS, { recursive: true });
  const en = await import(new URL('../../../daemon/web/shared/i18n/en.js', import.meta.url).href);
  keys = Object.keys(en.default.messages);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A full-page picture from the top (a sticky header would otherwise sit where the page was scrolled). */
const shot = async (page: Page, name: string) => {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
};

/** Every text a reader meets: visible text, the title, and the labels and hints of elements. */
const READER_TEXTS = `(() => {
  const attrs = ['aria-label', 'title', 'placeholder'];
  const labelled = [...document.querySelectorAll('*')].flatMap((el) => attrs.map((a) => el.getAttribute(a)).filter(Boolean));
  const options = [...document.querySelectorAll('option')].map((o) => o.textContent);
  return [document.title, document.body.innerText, ...labelled, ...options].join('\\n');
})()`;
const readerTexts = (page: Page): Promise<string> => page.evaluate(READER_TEXTS);

async function expectNoRawKey(page: Page, where: string) {
  const text = await readerTexts(page);
  const raw = keys.filter((k) => text.includes(k));
  expect(raw, where).toEqual([]);
  expect(text, where).not.toMatch(/\{\w+\}/);
}

async function openConsole(page: Page, query = '') {
  await page.goto(`${base}/arbiter?token=${TOKEN}${query}`);
  await expect.poll(() => page.locator('#board-rows tr').count()).toBe(4);
  const alerts = [1, 2, 3, 4].reduce((n, b) => n + hub.snapshot(b)!.alerts.length, 0);
  await expect.poll(() => page.locator('.alert').count()).toBe(alerts);
}

describe('languages', () => {
  it.each(LANGS)(
    '%s: viewer, board view, console, dispute view, tournament and calibration pages render with no raw key',
    async (lang) => {
      const page = await browser.newPage();
      const errors = watchErrors(page);
      await page.goto(`${base}/?lang=${lang}`);
      await expect.poll(() => page.locator('.card').count()).toBe(4);
      await expect.poll(() => page.locator('#status').getAttribute('data-status')).toBe('open');
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      await expectNoRawKey(page, `${lang} viewer`);
      await shot(page, `viewer-${lang}`);

      await page.goto(`${base}/?lang=${lang}#board-1`);
      await expect.poll(() => page.locator('#detail .move-list .move').count()).toBe(4);
      await expectNoRawKey(page, `${lang} board`);
      await shot(page, `board-${lang}`);

      await openConsole(page, `&lang=${lang}`);
      await expectNoRawKey(page, `${lang} console`);
      await shot(page, `console-${lang}`);

      await page.goto(`${base}/dispute.html?board=4&alert=${alert411.id}&lang=${lang}`);
      await expect.poll(() => page.locator('#dispute').isVisible()).toBe(true);
      await expectNoRawKey(page, `${lang} dispute`);
      await shot(page, `dispute-${lang}`);

      // No tournament on this daemon: every tab says so in the reader's language.
      await page.goto(`${base}/tournament.html?token=${TOKEN}&lang=${lang}#players`);
      await expect.poll(() => page.locator('#status').getAttribute('data-status')).toBe('open');
      await expect.poll(() => page.locator('#players-rows .empty').count()).toBe(1);
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      for (const tab of ['players', 'pairings', 'results', 'standings']) {
        await page.locator(`nav a[data-page="${tab}"]`).click();
        await expect.poll(() => page.locator(`#page-${tab}`).isVisible()).toBe(true);
        await expectNoRawKey(page, `${lang} tournament ${tab}`);
      }
      await shot(page, `tournament-${lang}`);

      // The calibration page: a prompt, then the profile saved, then a failure, all in the language.
      await page.goto(`${base}/calibrate.html?token=${TOKEN}&lang=${lang}`);
      await expect.poll(() => page.locator('#board-select option:not([disabled])').count()).toBe(4);
      await expectNoRawKey(page, `${lang} calibration`);
      await page.locator('#start').click();
      await expect.poll(() => hub.calibrating.has(1)).toBe(true);
      const say = hub.calibrating.get(1)!.say;
      say({ type: 'board', serial: 'SN-1', senses: 'pieces' });
      say({ type: 'prompt', prompt: { action: 'king', square: 23, piece: 'W', n: 52, of: 54, text: '' } });
      say({ type: 'learned', field: 3, square: 50, n: 50, of: 50 });
      await expect.poll(() => page.locator('#prompt').getAttribute('data-action')).toBe('king');
      await expectNoRawKey(page, `${lang} calibration prompt`);
      say({ type: 'done', profile: CALIBRATED });
      say({
        type: 'saved',
        file: '/srv/damlink/data/profiles/SN-1.json',
        serial: 'SN-1',
        fieldOrder: 'turned',
      });
      await expect.poll(() => page.locator('#summary').isVisible()).toBe(true);
      await expectNoRawKey(page, `${lang} calibration saved`);
      await page.locator('#again').click();
      await page.locator('#start').click();
      await expect.poll(() => hub.calibrating.has(1)).toBe(true);
      hub.calibrating.get(1)!.say({ type: 'failed', code: 'wrong-piece', message: 'prompt 52 asked for …' });
      await expect.poll(() => page.locator('#failure').isVisible()).toBe(true);
      await expectNoRawKey(page, `${lang} calibration failed`);
      expect(errors).toEqual([]);
      await page.close();
    },
  );

  it('Accept-Language: nl gives the Dutch page, and the menu’s choice is kept', async () => {
    const page = await browser.newPage();
    // The browser profile is shared by the file's tests: the stored choice goes whatever happens.
    try {
      await page.setExtraHTTPHeaders({ 'Accept-Language': 'nl-NL,nl;q=0.9,en;q=0.5' });
      const res = await page.goto(`${base}/`);
      expect(res!.headers().vary).toContain('Accept-Language');
      expect(await page.getAttribute('html', 'lang')).toBe('nl');
      await expect.poll(() => page.locator('.card').count()).toBe(4);
      expect(await page.locator('.card[data-board="1"] .board-no').textContent()).toBe('Bord 1');
      expect(await page.locator('label[for], .toggle').first().textContent()).toContain('Veldnummers');
      // The alert, said in Dutch from its rule and params.
      await page.goto(`${base}/arbiter?token=${TOKEN}`);
      await expect
        .poll(() => page.locator('.alert[data-rule="5.4.6"] .message').textContent())
        .toBe('5.4.6 Wit: gewone zet terwijl slaan mogelijk was (38-33; velden 28, 17).');
      expect(await page.locator('#alerts-title').textContent()).toContain('Meldingen');
      // The menu: Polish, kept for the next visit over the header.
      await page.selectOption('#lang-menu', 'pl');
      await expect.poll(() => page.getAttribute('html', 'lang')).toBe('pl');
      // The server writes the negotiated language; the page turns to the kept choice once its
      // table is loaded, which may come after the load event.
      await page.goto(`${base}/`);
      await expect.poll(() => page.getAttribute('html', 'lang')).toBe('pl');
    } finally {
      await page.evaluate("localStorage.removeItem('damlink-lang')").catch(() => undefined);
      await page.close();
    }
  });
});

describe('dark mode', () => {
  const background = (page: Page) =>
    page.evaluate<string>('getComputedStyle(document.documentElement).backgroundColor');
  const luminance = (rgb: string) => {
    const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };

  it('follows the emulated dark scheme, and the switch overrides it', async () => {
    const page = await browser.newPage();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${base}/#board-1`);
    await expect.poll(() => page.locator('#detail .move-list .move').count()).toBe(4);
    expect(luminance(await background(page))).toBeLessThan(60);
    const ink = await page.evaluate<string>('getComputedStyle(document.body).color');
    expect(luminance(ink)).toBeGreaterThan(180);
    await shot(page, 'board-dark');
    await openConsole(page);
    expect(luminance(await background(page))).toBeLessThan(60);
    await shot(page, 'console-dark');
    await page.selectOption('#theme-menu', 'light');
    expect(luminance(await background(page))).toBeGreaterThan(240);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.selectOption('#theme-menu', 'dark');
    expect(luminance(await background(page))).toBeLessThan(60);
    await page.selectOption('#theme-menu', 'auto');
    expect(luminance(await background(page))).toBeGreaterThan(240);
    await page.close();
  });
});

describe('pictures', () => {
  it('the SVG route’s picture of the start position has 40 pieces; the board view links to it', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/rounds/1/2.svg?ply=0&size=400`);
    expect(await page.locator('circle.piece').count()).toBe(40);
    expect(await page.locator('circle.piece.white').count()).toBe(20);
    const size = await page.evaluate("document.documentElement.getAttribute('width')");
    expect(size).toBe('400');
    // The PNG of the same position, as a reader downloads it.
    await page.goto(`${base}/rounds/1/2.png?ply=0&size=400`);
    expect(
      await page.evaluate('[document.images[0]?.naturalWidth, document.images[0]?.naturalHeight]'),
    ).toEqual([400, 400]);
    await shot(page, 'picture-start');

    await page.goto(`${base}/#board-1`);
    await expect.poll(() => page.locator('#detail .move-list .move').count()).toBe(4);
    await page.keyboard.press('ArrowLeft');
    expect(await page.locator('.picture-link').getAttribute('href')).toBe('rounds/1/1.svg?ply=3');
    const download = page.locator('.picture-download');
    expect(await download.getAttribute('href')).toBe('rounds/1/1.png?ply=3&size=800');
    const png = await page.evaluate(
      async (href) => {
        const r = await fetch(href);
        return { type: r.headers.get('content-type'), size: (await r.arrayBuffer()).byteLength };
      },
      (await download.getAttribute('href'))!,
    );
    expect(png.type).toBe('image/png');
    expect(png.size).toBeGreaterThan(2000);
    // The picture of ply 3 is the position the page shows.
    const svg = await page.evaluate(async () => (await fetch('rounds/1/1.svg?ply=3')).text());
    expect(svg).toContain(`data-fen="${hub.snapshot(1)!.moves[2].fenAfter}"`);
    // Copy: the PNG goes to the clipboard.
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.click('.picture-copy');
    await expect.poll(() => page.locator('.copy-state').textContent()).toBe('Picture copied');
    const types = await page.evaluate<string[]>(
      'navigator.clipboard.read().then((items) => items[0]?.types)',
    );
    expect(types).toContain('image/png');
    // The position in words for screen readers.
    const described = await page.locator('#detail svg.board').getAttribute('aria-describedby');
    expect(await page.locator(`#${described}`).textContent()).toMatch(
      /^Black to move\. White men: .*Black men: /,
    );
    await page.close();
  });
});

describe('dispute view', () => {
  it('steps through every sensor event of the injected 4.11 case, and exports what replay reads', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await openConsole(page);
    const card = page.locator(`.alert[data-alert="${alert411.id}"]`);
    await card.locator('.dispute-link').click();
    await expect.poll(() => page.locator('#dispute').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/dispute.html');
    const sensed = hub.sensorEvents(4, 0, Number.MAX_SAFE_INTEGER, 1e6).filter((e) => e.type !== 'tick');
    const stepInfo = page.locator('#step-info');
    expect(await stepInfo.textContent()).toBe(`Step 0 of ${sensed.length}`);
    expect(await page.locator('#rule-text').textContent()).toBe(
      'Captured pieces must be removed right after the capture, in capture order or its exact reverse, without pausing.',
    );
    expect(await page.locator('#alert-text').textContent()).toBe(alert411.message);
    expect(await page.locator('#event-rows tr').count()).toBe(sensed.length);
    expect(await page.locator('.time-axis .mark.ev-press').count()).toBe(
      sensed.filter((e) => e.type === 'press').length,
    );
    const pieces = () =>
      page
        .locator('#step-board [data-piece]')
        .evaluateAll((els) =>
          els
            .map(
              (e) =>
                `${e.getAttribute('data-piece')}${e.closest('[data-square]')!.getAttribute('data-square')}`,
            )
            .sort(),
        );
    expect(await pieces()).toEqual(['b19', 'b28', 'b9', 'w32']);

    // Step by step with the keys: the lifted man is in the hand, then crowned on 3.
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#step-event').textContent()).toContain('lift 32');
    expect(await page.locator('#hand').textContent()).toBe('w32');
    expect(await page.locator('#step-board .sq.mark').getAttribute('data-square')).toBe('32');
    const putOn3 = sensed.findIndex((e) => e.type === 'put' && e.square === 3) + 1;
    await page.locator(`#event-rows tr[data-step="${putOn3}"]`).click();
    expect(await stepInfo.getAttribute('data-step')).toBe(String(putOn3));
    expect(await page.locator('#hand').getAttribute('data-count')).toBe('0');
    expect(await pieces()).toEqual(['W3', 'b19', 'b28', 'b9']);
    // 19 off first: out of order (capture order 28, 19, 9 or 9, 19, 28).
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#step-event').textContent()).toContain('lift 19');
    expect(await page.locator('#hand').textContent()).toBe('b19');
    await page.keyboard.press('End');
    expect(await stepInfo.textContent()).toBe(`Step ${sensed.length} of ${sensed.length}`);
    expect(await pieces()).toEqual(['W3']);
    await shot(page, 'dispute-4.11-end');
    await page.keyboard.press('Home');
    expect(await stepInfo.getAttribute('data-step')).toBe('0');

    // Export: the JSON lines of `damlink replay`, which finds the same 4.11.
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    expect(download.suggestedFilename()).toBe(`board-4-${alert411.id}.jsonl`);
    const { readFileSync } = await import('node:fs');
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text.trim().split('\n')).toHaveLength(hub.sensorEvents(4, 0, Number.MAX_SAFE_INTEGER, 1e6).length);
    const command = await page.locator('#replay-command').textContent();
    expect(command).toContain(`--fen "${CASE_411}"`);
    const replay = replayEvents(text, { variant: 'international', startFen: CASE_411 });
    expect(replay.ok && replay.value.alerts.map((a) => a.rule)).toEqual(['4.11']);
    expect(replay.ok && replay.value.games[0].moves).toEqual(['32x3']);

    // Printable: the buttons go, every event stays.
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#step-nav').isVisible()).toBe(false);
    expect(await page.locator('#event-rows tr').first().isVisible()).toBe(true);
    await shot(page, 'dispute-print');
    await page.emulateMedia({ media: 'screen' });
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a console that keeps up', () => {
  it('a name being typed survives ten updates of its row, which update in place', async () => {
    const page = await browser.newPage();
    await openConsole(page);
    const row = page.locator('#board-rows tr[data-board="1"]');
    await row.evaluate((tr: { marked?: boolean }) => {
      tr.marked = true;
    });
    const white = row.locator('[data-field="white"]');
    await white.fill('');
    await white.pressSequentially('Jansen, Pi');
    const states = ['silent', 'active', 'lost', 'active', 'silent'] as const;
    for (let i = 0; i < 10; i++) {
      if (i % 2 === 0) hub.state(1, states[i / 2]);
      else await hub.setInfo(1, { black: `Sijbrands ${i}` });
    }
    hub.clock(1, 5_000_000, 4_000_000, 'black');
    await expect.poll(() => row.locator('[data-field="black"]').inputValue()).toBe('Sijbrands 9');
    await expect.poll(() => row.locator('.badge').textContent()).toBe('silent');
    expect(await white.inputValue()).toBe('Jansen, Pi');
    expect(await white.evaluate((el) => el.matches(':focus'))).toBe(true);
    expect(await row.evaluate((tr: { marked?: boolean }) => tr.marked)).toBe(true);
    // The clock runs on the console's row too.
    expect(await row.locator('.clock[data-side="white"]').textContent()).toBe('1:23:20');
    expect(await row.locator('.clock.running').getAttribute('data-side')).toBe('black');
    await white.pressSequentially('et');
    await row.locator('[data-act="save-info"]').click();
    await expect.poll(() => hub.snapshot(1)!.info.white).toBe('Jansen, Piet');
    hub.state(1, 'active');
    await page.close();
  });

  it('the correction editor works from the keyboard', async () => {
    const page = await browser.newPage();
    await openConsole(page);
    const card = page.locator('.alert[data-rule="5.4.6"]');
    await card.locator('[data-act="correct"]').click();
    const square = (n: number) => card.locator(`.editor g[data-square="${n}"]`);
    await square(1).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate("document.activeElement?.getAttribute('data-square')")).toBe('2');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate("document.activeElement?.getAttribute('data-square')")).toBe('7');
    await card.locator('[data-brush="B"]').click();
    await square(7).focus();
    await page.keyboard.press('Enter');
    expect(await card.locator('[data-field="fen"]').inputValue()).toContain('K7');
    expect(await page.evaluate("document.activeElement?.getAttribute('data-square')")).toBe('7');
    await page.keyboard.press('Space');
    expect(await card.locator('[data-field="fen"]').inputValue()).not.toContain('K7');
    await card.locator('[data-act="cancel"]').click();
    await page.close();
  });

  it('a new alert rings and notifies (both switchable); alerts already there at load do not', async () => {
    const page = await browser.newPage();
    // Stand-ins for the browser's notifications and audio, recording what the page asks of them.
    await page.addInitScript(`
      window.rang = 0; window.notified = [];
      window.Notification = class { static permission = 'granted'; static requestPermission = async () => 'granted';
        constructor(title, options) { window.notified.push(title + ' | ' + options.body); } };
      window.AudioContext = class { currentTime = 0; destination = {};
        createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; }
        createOscillator() { return { frequency: {}, connect: (g) => g, start: () => { window.rang++; }, stop() {} }; } };
    `);
    await openConsole(page);
    await page.check('#notify-toggle');
    expect(await page.isChecked('#sound-toggle')).toBe(true);
    expect(await page.evaluate('[window.rang, window.notified.length]')).toEqual([0, 0]);
    hub.alert(2, {
      id: '3-5.4.4-1',
      rule: '5.4.4',
      ply: 3,
      side: 'white',
      message: 'm',
      params: { side: 'white', move: '33-28' },
      events: [],
    });
    await expect.poll(() => page.evaluate('window.rang')).toBe(1);
    expect(await page.evaluate('window.notified')).toEqual([
      'Board 2: 5.4.4 | 5.4.4 White: move taken back (33-28).',
    ]);
    // Switched off: silence, kept for the next visit.
    await page.uncheck('#sound-toggle');
    await page.uncheck('#notify-toggle');
    hub.alert(2, {
      id: '3-5.4.4-2',
      rule: '5.4.4',
      ply: 3,
      side: 'white',
      message: 'm',
      params: { side: 'white' },
      events: [],
    });
    await expect.poll(() => page.locator('.alert[data-alert="3-5.4.4-2"]').count()).toBe(1);
    expect(await page.evaluate('[window.rang, window.notified.length]')).toEqual([1, 1]);
    await page.reload();
    await expect.poll(() => page.locator('#console').isVisible()).toBe(true);
    expect(await page.isChecked('#sound-toggle')).toBe(false);
    await page.check('#sound-toggle');
    await page.close();
  });

  it('reduced motion: new alerts do not animate', async () => {
    const page = await browser.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openConsole(page);
    hub.alert(3, {
      id: '2-5.4.1-1',
      rule: '5.4.1',
      ply: 2,
      side: 'black',
      message: 'm',
      params: { side: 'black' },
      events: [],
    });
    const fresh = page.locator('.alert[data-alert="2-5.4.1-1"]');
    await expect.poll(() => fresh.count()).toBe(1);
    expect(await fresh.evaluate((el) => el.classList.contains('new'))).toBe(true);
    expect(
      await page.evaluate(
        `getComputedStyle(document.querySelector('.alert[data-alert="2-5.4.1-1"]')).animationName`,
      ),
    ).toBe('none');
    // Newest first: the new alert's board leads.
    expect(await page.locator('.alert-group').first().getAttribute('data-board')).toBe('3');
    await page.close();
  });
});
