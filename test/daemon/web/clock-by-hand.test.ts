// A clock that cannot take damlink's setting, in real headless Chromium: the arbiter console's clocks
// cell says "set it by hand" with the reason (in the reader's language), the G.4 / G.5 answer says
// whether the clock was set, and the marker goes once a setting is taken. A `flags` alert names no
// side.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser, watchErrors } from './fixtures/browser.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { serve, type Served } from './fixtures/serve.ts';

const TOKEN = 'arbiter-by-hand-1';
let hub: FakeHub;
let server: Served;
let browser: TestBrowser;
let base: string;

beforeAll(async () => {
  hub = new FakeHub([
    { board: 1, white: 'Ba, Anna', black: 'Bo, Bea', timeControl: '3600', quickplayFinish: true },
    { board: 2, white: 'Ca, Cor', black: 'Do, Dan', timeControl: '3600', quickplayFinish: true },
  ]);
  hub.clock(1, 100_000, 590_000, 'white');
  hub.clock(2, 100_000, 590_000, 'white');
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

describe('arbiter console: a clock to be set by hand', () => {
  it('G.4 on a clock that takes no settings: the marker with the reason, and the answer says so', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/arbiter?token=${TOKEN}`);
    await expect.poll(() => page.locator('#board-rows tr').count()).toBe(2);
    const one = row(page, 1);
    const marker = one.locator('.clocks .clock-by-hand');
    expect(await marker.isVisible()).toBe(false);

    hub.clockAnswer = { set: false, reason: 'no-capability', answers: [] };
    await enter(page, 1, 'increment:white');
    await expect.poll(() => marker.getAttribute('data-clock-command')).toBe('no-capability');
    expect(await marker.isVisible()).toBe(true);
    expect(await marker.textContent()).toBe("Clock: set it by hand — the board's clock takes no settings");
    // The action's answer, and a notice of its own (the clock did not take the setting).
    await expect
      .poll(() => toasts(page))
      .toContain(
        "Board 1: G.4 White asks for the increment — Clock: set it by hand — the board's clock takes no settings",
      );
    expect(await toasts(page)).toContain(
      "Board 1: Clock: set it by hand — the board's clock takes no settings",
    );
    expect(await row(page, 2).locator('.clock-by-hand').isVisible()).toBe(false);

    // The next setting is taken: the marker goes, the answer says the clock was set.
    hub.clockAnswer = { set: true, answers: ['ok'] };
    await enter(page, 1, 'claim:black:reject');
    await expect.poll(() => marker.isVisible()).toBe(false);
    await expect
      .poll(() => toasts(page))
      .toContain("Board 1: G.5 Black's draw claim rejected — the clock was set");
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a DGT clock that refused, in French; a flags alert names both sides, not the side to move', async () => {
    hub.clockAnswer = { set: false, reason: 'refused', answers: ['error', 'error', 'error'] };
    await hub.act(2, { type: 'increment', side: 'black' });
    hub.alert(2, {
      id: '3-flags-1',
      rule: 'flags',
      ply: 3,
      message: 'Both flags fell.',
      params: {},
      events: [],
    });
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/arbiter?token=${TOKEN}&lang=fr`);
    const marker = row(page, 2).locator('.clock-by-hand');
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
