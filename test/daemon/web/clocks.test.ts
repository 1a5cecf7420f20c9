// Clocks and the end of the game in real headless Chromium: the arbiter console shows both clocks and
// Appendix G's state (under two minutes at his move, the G.4 increment, a postponed G.5 claim), its
// actions reach the hub as `act` calls, a flag alert has its rule text, spectators see the G marker.
// A clock that cannot take damlink's setting says "set it by hand" with the reason (in the reader's
// language), the G.4 / G.5 answer says whether the clock was set; a `flags` alert names no side.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser, signedIn } from './fixtures/browser.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { serve, type Served } from './fixtures/serve.ts';

const TOKEN = 'arbiter-clocks-1';
let hub: FakeHub;
let server: Served;
let browser: TestBrowser;
let base: string;

beforeAll(async () => {
  hub = new FakeHub([
    {
      board: 1,
      white: 'Baliakin, Alexander',
      black: 'Sijbrands, Ton',
      timeControl: '3600',
      quickplayFinish: true,
    },
    {
      board: 2,
      white: 'Georgiev, Alexander',
      black: 'Schwarzman, Alexei',
      timeControl: '300',
      quickplayFinish: true,
    },
    { board: 3, white: 'Ba, Anna', black: 'Bo, Bea', timeControl: '3600', quickplayFinish: true },
    { board: 4, white: 'Ca, Cor', black: 'Do, Dan', timeControl: '3600', quickplayFinish: true },
  ]);
  hub.clock(3, 100_000, 590_000, 'white');
  hub.clock(4, 100_000, 590_000, 'white');
  hub.move(1, '32-28', { white: 100_000, black: 600_000 });
  hub.move(1, '19-23', { white: 100_000, black: 590_000 });
  hub.clock(1, 100_000, 590_000, 'white');
  // The record reads Appendix G from the time control: it applies on board 1, not in board 2's blitz.
  await hub.act(1, { type: 'draw-offer', side: 'black' });
  await hub.act(2, { type: 'draw-offer', side: 'white' });
  hub.clock(2, 60_000, 50_000, 'white');
  server = await serve(hub, { arbiter: TOKEN });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const row = (page: Page, board: number) => page.locator(`#board-rows tr[data-board="${board}"]`);
const enter = async (page: Page, board: number, value: string) => {
  await row(page, board).locator('[data-field="action"]').selectOption(value);
  await row(page, board).locator('[data-act="act"]').click();
};
const toasts = (page: Page) => page.locator('.toast').allTextContents();

describe('arbiter console: clocks and the end of the game', () => {
  it('shows the clocks and who is under two minutes; G.4, G.5 and a resignation reach the hub', async () => {
    const { page, errors } = await signedIn(browser, base, TOKEN, { boards: 4 });
    const one = row(page, 1);
    // Main's clocks column carries Appendix G's marker and line; there is no second clock display.
    await expect.poll(() => one.locator('.clocks .clock[data-side="black"]').textContent()).toBe('9:50');
    expect(await one.locator('.clocks .clock[data-side="white"]').getAttribute('class')).toContain('running');
    expect(await one.locator('.clock[data-side]').count()).toBe(2);
    await expect.poll(() => one.locator('.g-under').getAttribute('data-g-under')).toBe('white');
    expect(await one.locator('.g-under').textContent()).toBe('White under 2 min: G.4 / G.5');
    expect(await one.locator('.quickplay').textContent()).toBe('Appendix G');
    // Board 2 is blitz: Appendix G says why not, and offers no G actions; its clocks still show.
    const two = row(page, 2);
    expect(await two.locator('.quickplay').textContent()).toBe('Appendix G: no — G.3: not for blitz');
    expect(await two.locator('.g-under').isVisible()).toBe(false);
    expect(await two.locator('option[value="increment:white"]').count()).toBe(0);

    // A chosen action and the row survive the row's updates (the keyed console fills cells in place).
    const rowHandle = await one.elementHandle();
    await one.locator('[data-field="action"]').selectOption('claim:black:reject');
    hub.clock(1, 99_000, 590_000, 'white');
    await hub.act(1, { type: 'draw-offer', side: 'white' });
    await expect.poll(() => one.locator('.actions').getAttribute('data-actions')).toBe('2');
    await page.waitForTimeout(450); // two 200 ms repaints
    expect(await one.locator('[data-field="action"]').inputValue()).toBe('claim:black:reject');
    expect(await rowHandle?.evaluate((el) => el.isConnected)).toBe(true);

    await enter(page, 1, 'increment:white');
    await expect
      .poll(() => hub.actions.at(-1))
      .toEqual({ board: 1, action: { type: 'increment', side: 'white' } });
    await expect.poll(() => one.locator('.quickplay').textContent()).toBe('Appendix G · G.4 increment +5 s');

    await enter(page, 1, 'claim:white:postpone');
    await expect
      .poll(() => hub.actions.at(-1))
      .toEqual({ board: 1, action: { type: 'claim', side: 'white', decision: 'postpone' } });
    await expect.poll(() => one.locator('.quickplay').getAttribute('data-quickplay')).toBe('postponed');
    expect(await one.locator('.quickplay').textContent()).toContain('G.5 claim of White postponed');

    await enter(page, 2, 'resign:black');
    await expect
      .poll(() => hub.actions.at(-1))
      .toEqual({ board: 2, action: { type: 'resign', side: 'black' } });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a flag alert carries its rule text; spectators see the G marker of the side under two minutes', async () => {
    const { page } = await signedIn(browser, base, TOKEN, { boards: 4 });
    hub.alert(2, {
      id: '1-flag-1',
      rule: 'flag',
      ply: 1,
      side: 'white',
      message: 'White: flag fell (time exceeded).',
      events: [],
    });
    const alert = page.locator('.alert[data-alert="1-flag-1"]');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.locator('.rule-text').textContent()).toMatch(/time ran out/);

    const spectator = await browser.newPage();
    await spectator.goto(`${base}/`);
    const card = spectator.locator('.card[data-board="1"]');
    await expect.poll(() => card.locator('.player.white .g-marker').isVisible()).toBe(true);
    expect(await card.locator('.player.black .g-marker').isVisible()).toBe(false);
    expect(await spectator.locator('.card[data-board="2"] .g-marker:visible').count()).toBe(0);
    await spectator.close();
    await page.close();
  });
});

describe('arbiter console: a clock to be set by hand', () => {
  it('G.4 on a clock that takes no settings: the marker with the reason, and the answer says so', async () => {
    // Board 3 is a line board whose hello announced no clock: said before any setting is needed.
    hub.clockByHand.set(3, 'no-capability');
    const { page, errors } = await signedIn(browser, base, TOKEN, { boards: 4 });
    const one = row(page, 3);
    const marker = one.locator('.clocks .clock-by-hand');
    await expect.poll(() => marker.getAttribute('data-clock-command')).toBe('no-capability');
    expect(await marker.isVisible()).toBe(true);

    hub.clockAnswer = { set: false, reason: 'no-capability', answers: [] };
    await enter(page, 3, 'increment:white');
    await expect.poll(() => marker.getAttribute('data-clock-command')).toBe('no-capability');
    expect(await marker.isVisible()).toBe(true);
    expect(await marker.textContent()).toBe("Clock: set it by hand — the board's clock takes no settings");
    // The action's answer, and a notice of its own (the clock did not take the setting).
    await expect
      .poll(() => toasts(page))
      .toContain(
        "Board 3: G.4 White asks for the increment — Clock: set it by hand — the board's clock takes no settings",
      );
    expect(await toasts(page)).toContain(
      "Board 3: Clock: set it by hand — the board's clock takes no settings",
    );
    expect(await row(page, 4).locator('.clock-by-hand').isVisible()).toBe(false);

    // The board comes back with caps=clock and the next setting is taken: the marker goes, the
    // answer says the clock was set.
    hub.clockByHand.delete(3);
    hub.state(3, 'lost');
    hub.state(3, 'active');
    hub.clockAnswer = { set: true, answers: ['ok'] };
    await enter(page, 3, 'claim:black:reject');
    await expect.poll(() => marker.isVisible()).toBe(false);
    await expect
      .poll(() => toasts(page))
      .toContain("Board 3: G.5 Black's draw claim rejected — the clock was set");
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a DGT clock that refused, in French; a flags alert names both sides, not the side to move', async () => {
    hub.clockAnswer = { set: false, reason: 'refused', answers: ['error', 'error', 'error'] };
    await hub.act(4, { type: 'increment', side: 'black' });
    hub.alert(4, {
      id: '3-flags-1',
      rule: 'flags',
      ply: 3,
      message: 'Both flags fell.',
      params: {},
      events: [],
    });
    const { page, errors } = await signedIn(browser, base, TOKEN, { query: '&lang=fr' });
    const marker = row(page, 4).locator('.clock-by-hand');
    await expect.poll(() => marker.getAttribute('data-clock-command')).toBe('refused');
    expect(await marker.textContent()).toBe(
      'Pendule : à régler à la main — la pendule a refusé le réglage (une pendule DGT doit être en mode 23)',
    );
    const alert = page.locator('.alert[data-alert="3-flags-1"]');
    await expect.poll(() => alert.count()).toBe(1);
    expect(await alert.locator('.message').textContent()).toBe('Les deux drapeaux sont tombés.');
    expect(await alert.locator('.meta').textContent()).toMatch(/^demi-coup 3 \(coup 2, les deux camps\)/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
