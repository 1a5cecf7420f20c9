// The spectator view and the arbiter console in real headless Chromium, against the real HTTP /
// WebSocket server (daemon/server) fed by a scripted hub.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, SCREENSHOTS, type TestBrowser, signedIn, watchErrors } from './fixtures/browser.ts';
import { type CutProxy, startCutProxy } from './fixtures/cut-proxy.ts';
import { legalMoves, moveNotation, Position, play, writeFen } from '../../../src/engine/index.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { tableGameOf } from '../../../src/broadcast/index.ts';
import { serve, type Served } from './fixtures/serve.ts';

const TOKEN = 'arbiter-secret-7';
/** How far the page is wider than the screen (evaluated in the page). */
const OVERFLOW = 'document.documentElement.scrollWidth - window.innerWidth';
const OPENING = ['32-28', '19-23', '28x19', '14x23'];

let hub: FakeHub;
let server: Served;
let proxy: CutProxy;
let browser: TestBrowser;
let base: string;

beforeAll(async () => {
  hub = new FakeHub([
    { board: 1, white: 'Baliakin, Alexander', black: 'Sijbrands, Ton', event: 'Test Open' },
    { board: 2, white: 'Georgiev, Alexander', black: 'Schwarzman, Alexei', drawProfile: 'advantage' },
    {
      board: 3,
      white: 'Boomstra, Roel',
      black: 'Van IJzendoorn, Jan',
      variant: 'brazilian',
      serial: 'SIM-3',
    },
  ]);
  for (const m of OPENING) hub.move(1, m, { white: 5_400_000, black: 5_390_000 });
  hub.move(2, '33-28');
  server = await serve(hub, { arbiter: TOKEN });
  proxy = await startCutProxy(server.port);
  base = `http://127.0.0.1:${proxy.port}`;
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

// A failed drop test must not leave the network cut for the others.
afterEach(() => proxy.restore());

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await server?.close();
});

const card = (page: Page, board: number) => page.locator(`.card[data-board="${board}"]`);
const moveTexts = (page: Page) => page.locator('.move-list .move[data-ply]').allTextContents();
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

describe('spectator view', () => {
  it('shows every board of the round with players, clocks, state and the last move, and moves appear live', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    await expect.poll(() => page.locator('.card').count()).toBe(3);
    await expect.poll(() => page.locator('#status').getAttribute('data-status')).toBe('open');
    const one = card(page, 1);
    expect(await one.locator('.player.white .name').textContent()).toBe('Baliakin, Alexander');
    expect(await one.locator('.player.black .name').textContent()).toBe('Sijbrands, Ton');
    expect(await one.locator('.badge').textContent()).toBe('live');
    expect(await one.locator('.last-move').textContent()).toBe('2... 14x23');
    // The last capture: from/to highlighted, the captured square crossed.
    expect(
      await one.locator('.sq.last').evaluateAll((els) => els.map((e) => e.getAttribute('data-square'))),
    ).toEqual(['14', '23']);
    expect(await one.locator('.captured').getAttribute('data-square')).toBe('19');
    // The brazilian board is 8×8: 32 squares.
    expect(await card(page, 3).locator('.sq').count()).toBe(32);
    expect(await page.locator('#round-title').textContent()).toContain('Round 1');

    hub.move(1, '37-32', { white: 5_380_000, black: 5_390_000 });
    await expect.poll(() => one.locator('.last-move').textContent()).toBe('3. 37-32');
    expect(
      await one.locator('.sq.last').evaluateAll((els) => els.map((e) => e.getAttribute('data-square'))),
    ).toEqual(['32', '37']);
    // After White's move Black's clock runs, and only Black's.
    expect(await one.locator('.clock.running').getAttribute('data-side')).toBe('black');
    expect(await one.locator('.clock.running').count()).toBe(1);
    expect(await one.locator('.clock[data-side="white"]').textContent()).toBe('1:29:40');
    await shot(page, 'spectator-grid');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens a board large: move list in PDN, navigation by buttons and keys, flip, PDN link', async () => {
    const page = await browser.newPage();
    const errors = watchErrors(page);
    await page.goto(`${base}/`);
    await card(page, 1).click();
    await expect.poll(() => page.locator('#detail').isVisible()).toBe(true);
    expect(page.url()).toMatch(/#board-1$/);
    const snapshot = hub.snapshot(1)!;
    const pdns = snapshot.moves.map((m) => m.pdn);
    expect(await moveTexts(page)).toEqual(pdns);
    const plyInfo = page.locator('.ply-info');
    const boardFen = () => page.locator('#detail svg.board').getAttribute('data-fen');
    expect(await plyInfo.getAttribute('data-ply')).toBe(String(pdns.length));

    await page.keyboard.press('ArrowLeft');
    expect(await plyInfo.getAttribute('data-ply')).toBe(String(pdns.length - 1));
    expect(await boardFen()).toBe(snapshot.moves[pdns.length - 2].fenAfter);
    await page.keyboard.press('Home');
    expect(await boardFen()).toBe(snapshot.startFen);
    await page.click('[data-nav="forward"]');
    expect(await plyInfo.getAttribute('data-ply')).toBe('1');
    expect(await page.locator('.move.current').textContent()).toBe('32-28');
    // Looking back shows the clocks recorded with that move, not the live ones.
    expect(await page.locator('#detail .clock[data-recorded="white"]').textContent()).toBe('1:30:00');
    expect(await page.locator('#detail .clock[data-side]').count()).toBe(0);

    // A live move while looking back does not pull the view forward, but joins the list.
    hub.move(1, '18-22');
    await expect.poll(() => moveTexts(page)).toEqual([...pdns, '18-22']);
    expect(await plyInfo.getAttribute('data-ply')).toBe('1');
    await page.keyboard.press('End');
    expect(await plyInfo.getAttribute('data-ply')).toBe(String(pdns.length + 1));
    expect(await boardFen()).toBe(hub.snapshot(1)!.fen);

    // Clicking a move shows it.
    await page.locator('.move[data-ply="3"]').click();
    expect(await page.locator('#detail .captured').getAttribute('data-square')).toBe('23');

    // Flip: White's bottom-left square 46 goes to the top-right corner.
    const rect46 = () =>
      page
        .locator('#detail g[data-square="46"] rect')
        .evaluate((r) => [r.getAttribute('x'), r.getAttribute('y')]);
    expect(await rect46()).toEqual(['0', '90']);
    await page.keyboard.press('f');
    expect(await rect46()).toEqual(['90', '0']);
    expect(await page.locator('#detail svg.board.flipped').count()).toBe(1);

    // Square numbers: hidden until the toggle (or hover).
    const num = page.locator('#detail g[data-square="1"] .num');
    expect(await num.isVisible()).toBe(false);
    await page.keyboard.press('n');
    expect(await page.locator('#detail g[data-square="1"] .num').isVisible()).toBe(true);

    const href = await page.locator('.pdn-link').getAttribute('href');
    expect(href).toBe('rounds/1/1.pdn');
    const pdn = await page.evaluate(async (h) => (await fetch(h)).text(), href!);
    expect(pdn).toContain('[White "Baliakin, Alexander"]');
    expect(pdn).toContain('18-22');
    await shot(page, 'spectator-board');

    await page.keyboard.press('Escape');
    expect(await page.locator('#grid').isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('after a network drop reconnects and resumes from its versions without duplicated moves', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/#board-2`);
    await expect.poll(() => moveTexts(page)).toEqual(['33-28']);
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));

    proxy.cut();
    await expect.poll(() => page.locator('#status').getAttribute('data-status')).not.toBe('open');
    hub.move(2, '18-23');
    hub.move(2, '39-33');
    proxy.restore();
    await expect
      .poll(() => page.locator('#status').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('open');
    await expect.poll(() => moveTexts(page)).toEqual(['33-28', '18-23', '39-33']);
    expect(sockets.length).toBeGreaterThanOrEqual(1);

    // A second drop while the daemon no longer keeps the missed events: a fresh snapshot, still no duplicates.
    proxy.cut();
    await expect.poll(() => page.locator('#status').getAttribute('data-status')).not.toBe('open');
    hub.move(2, '12-18');
    hub.forget(2);
    proxy.restore();
    await expect
      .poll(() => moveTexts(page), { timeout: 10_000 })
      .toEqual(['33-28', '18-23', '39-33', '12-18']);
    hub.move(2, '44-39');
    await expect.poll(() => moveTexts(page)).toEqual(['33-28', '18-23', '39-33', '12-18', '44-39']);
    // A feed message lost on the way: the next one shows a gap, the page asks again `since`.
    hub.muted = true;
    hub.move(2, '7-12');
    hub.muted = false;
    hub.move(2, '50-44');
    await expect
      .poll(() => moveTexts(page))
      .toEqual(['33-28', '18-23', '39-33', '12-18', '44-39', '7-12', '50-44']);
    // No reload happened: the page kept its navigation entry.
    expect(await page.evaluate("performance.getEntriesByType('navigation').length")).toBe(1);
    await page.close();
  });

  it('follows board state, takebacks and new games', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    const three = card(page, 3);
    await expect.poll(() => three.locator('.badge').textContent()).toBe('live');
    hub.state(3, 'lost');
    await expect.poll(() => three.locator('.badge').textContent()).toBe('lost');
    hub.state(3, 'active');
    // Names are data, never markup.
    await hub.setInfo(3, { black: '<img id="xss" src="x">Evil "quote"' });
    await expect
      .poll(() => three.locator('.player.black .name').textContent())
      .toBe('<img id="xss" src="x">Evil "quote"');
    expect(await page.locator('#xss').count()).toBe(0);
    expect(await three.locator('svg.board').getAttribute('aria-label')).toContain('<img id="xss"');
    await hub.setInfo(3, { black: 'Van IJzendoorn, Jan' });
    hub.move(3, '22-18');
    hub.move(3, '11-15');
    await expect.poll(() => three.locator('.last-move').getAttribute('data-moves')).toBe('2');
    const afterFirst = hub.snapshot(3)!.moves[0].fenAfter;
    hub.takeback(3, 1);
    await expect.poll(() => three.locator('.last-move').getAttribute('data-moves')).toBe('1');
    expect(await three.locator('svg.board').getAttribute('data-fen')).toBe(afterFirst);
    const fresh = hub.snapshot(3)!;
    // The pieces set up again after the game: the round's game stays on show (docs/broadcast.md) ...
    hub.newGame(3, fresh.startFen);
    await expect.poll(() => hub.snapshot(3)!.tableGame?.moves.length).toBe(1);
    expect(await three.locator('.last-move').textContent()).toBe('1. 22-18');
    expect(await three.locator('svg.board').getAttribute('data-fen')).toBe(afterFirst);
    // ... until a longer game on the board shows the first was not the table's (a restart).
    hub.move(3, '22-18');
    hub.move(3, '11-15');
    await expect.poll(() => three.locator('.last-move').getAttribute('data-moves')).toBe('2');
    expect(hub.snapshot(3)!.tableGame).toBeUndefined();
    await page.close();
  });

  it('the first paint has every board: the round comes with the page, before the socket says anything', async () => {
    const page = await browser.newPage();
    // The socket is held: nothing comes over it.
    await page.routeWebSocket(/\/api\/v1/, () => {});
    await page.goto(`${base}/`);
    expect(await page.locator('.card').count()).toBe(3);
    expect(await card(page, 1).textContent()).toContain('Baliakin, Alexander');
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toContain('<script type="application/json" id="round-state">');
    await page.close();
  });

  it('fits a phone screen', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/`);
    await expect.poll(() => page.locator('.card').count()).toBe(3);
    const overflow = await page.evaluate(OVERFLOW);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await card(page, 1).boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    await shot(page, 'spectator-phone');
    await page.goto(`${base}/#board-1`);
    await expect.poll(() => page.locator('#detail').isVisible()).toBe(true);
    expect(await page.evaluate(OVERFLOW)).toBeLessThanOrEqual(0);
    await shot(page, 'spectator-phone-board');
    await page.goto(`${base}/arbiter?token=${TOKEN}`);
    await expect.poll(() => page.locator('#board-rows tr').count()).toBe(3);
    expect(await page.evaluate(OVERFLOW)).toBeLessThanOrEqual(0);
    await shot(page, 'arbiter-phone');
    await page.close();
  });
});

describe('arbiter console', () => {
  it('fits a 1280-pixel screen: every column, the end of the game included, without scrolling sideways', async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/arbiter?token=${TOKEN}`);
    await expect.poll(() => page.locator('#board-rows tr').count()).toBe(3);
    // Evaluated in the page: how far the boards' table scrolls sideways, where its last column ends.
    const widths = (await page.evaluate(`(() => {
      const box = document.querySelector('#board-rows').closest('table').parentElement;
      const last = document.querySelector('#board-rows tr td:last-child').getBoundingClientRect();
      return { scroll: box.scrollWidth - box.clientWidth, right: last.right, page: window.innerWidth };
    })()`)) as { scroll: number; right: number; page: number };
    expect(widths.scroll).toBeLessThanOrEqual(0);
    expect(widths.right).toBeLessThanOrEqual(widths.page);
    expect(await page.evaluate(OVERFLOW)).toBeLessThanOrEqual(0);
    // No round box on each row (the round is the daemon's), no Appendix G line where it was not announced.
    expect(await page.locator('#board-rows [data-field="round"]').count()).toBe(0);
    expect(await page.locator('#board-rows .quickplay:visible').count()).toBe(0);
    await shot(page, 'arbiter-1280');
    await page.close();
  });

  it('refuses without the token: the page asks for it, a wrong one is refused, and so are the API calls', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/arbiter`);
    await expect.poll(() => page.locator('#token-form').isVisible()).toBe(true);
    expect(await page.locator('#console').isVisible()).toBe(false);
    expect(await page.locator('#token-message').textContent()).toContain('token is required');

    await page.fill('#token-input', 'wrong');
    await page.click('#token-form button[type="submit"]');
    await expect.poll(() => page.locator('#token-message').textContent()).toContain('Token refused');
    expect(await page.locator('#console').isVisible()).toBe(false);

    // The server enforces it, whatever the page does.
    const answer = await page.evaluate(
      (url) =>
        new Promise<unknown>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () =>
            ws.send(JSON.stringify({ id: 1, call: 'result', param: { board: 1, result: '2-0' } }));
          ws.onmessage = (e) => {
            const msg = JSON.parse(e.data);
            if (msg.id === 1) resolve(msg);
          };
        }),
      `ws://127.0.0.1:${proxy.port}/api/v1`,
    );
    expect(answer).toMatchObject({ response: 'error', param: { code: 'unauthorized' } });
    expect(hub.snapshot(1)!.result).toBe('*');
    await shot(page, 'arbiter-refused');
    await page.close();
  });

  it('works at /arbiter/ too (trailing slash)', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/arbiter/?token=${TOKEN}`);
    await expect.poll(() => page.locator('#console').isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/arbiter');
    await page.close();
  });

  it('opens from the address the daemon prints (#token=…), which then leaves the address bar', async () => {
    const admin = 'made-admin-token-0123456789';
    const open = await serve(hub, { admin });
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${open.port}/arbiter#token=${admin}`);
      await expect.poll(() => page.locator('#console').isVisible()).toBe(true);
      expect(await page.locator('#token-form').isVisible()).toBe(false);
      await expect.poll(() => page.locator('#board-rows tr').count()).toBe(3);
      expect(page.url()).toBe(`http://127.0.0.1:${open.port}/arbiter`);
    } finally {
      await page.close();
      await open.close();
    }
  });

  it('shows alerts newest first with rule text, timeline and boards; decisions reach the hub and the spectator view', async () => {
    const { page, errors } = await signedIn(browser, base, TOKEN);
    expect(page.url()).not.toContain(TOKEN);
    await expect.poll(() => page.locator('#board-rows tr').count()).toBe(3);

    const before = hub.snapshot(2)!.fen;
    const first = hub.alert(2, {
      id: '4-5.4.6-1',
      rule: '5.4.6',
      ply: 6,
      side: 'white',
      message: 'White played 38-33 while 28x17 was possible',
      events: [
        { t: 100_000, type: 'lift', square: 38 },
        { t: 100_400, type: 'put', square: 33, piece: 'w' },
        { t: 100_900, type: 'press', side: 'white' },
      ],
      before,
      after: before.replace('38', '33'),
    });
    await expect.poll(() => page.locator('.alert').count()).toBe(1);
    const alert = page.locator(`.alert[data-alert="${first}"]`);
    expect(await alert.locator('.rule').textContent()).toContain('5.4.6');
    expect(await alert.locator('.rule-text').textContent()).toBe(
      'A non-capturing move was played while a capture was possible.',
    );
    expect(await alert.locator('.meta').textContent()).toContain('ply 6');
    expect(await alert.locator('.timeline li').allTextContents()).toEqual([
      '+0.00s lift 38',
      '+0.40s put 33 w',
      '+0.90s White presses clock',
    ]);
    expect(await alert.locator('figure svg.board').count()).toBe(2);
    expect(await page.locator('#open-count').textContent()).toBe('1 open alert');

    const second = hub.alert(1, {
      id: '7-4.11-1',
      rule: '4.11',
      ply: 7,
      side: 'black',
      message: 'captured pieces removed out of order',
      events: [{ t: 200_000, type: 'lift', square: 28 }],
    });
    await expect.poll(() => page.locator('.alert').count()).toBe(2);
    // Newest first.
    expect(await page.locator('.alert').first().getAttribute('data-alert')).toBe(second);
    await shot(page, 'arbiter-alerts');

    await alert.locator('[data-act="stands"]').click();
    await expect.poll(() => hub.decisions.length).toBe(1);
    expect(hub.decisions[0]).toEqual({ board: 2, decision: { alertId: first, kind: 'stands' } });
    await expect.poll(() => alert.locator('.decision-done').getAttribute('data-decision')).toBe('stands');

    // "Corrected" with the board editor: start from the position before, add a black king on 3.
    const other = page.locator(`.alert[data-alert="${second}"]`);
    await other.locator('[data-act="correct"]').click();
    await other.locator('[data-brush="B"]').click();
    await other.locator('.editor g[data-square="3"]').click();
    const fen = await other.locator('[data-field="fen"]').inputValue();
    expect(fen).toContain('K3');
    await shot(page, 'arbiter-correction');
    await other.locator('[data-act="send-correction"]').click();
    await expect.poll(() => hub.decisions.length).toBe(2);
    expect(hub.decisions[1]).toEqual({ board: 1, decision: { alertId: second, kind: 'corrected', fen } });
    await expect.poll(() => page.locator('#open-count').isVisible()).toBe(false);
    await page.check('#open-only');
    expect(await page.locator('.alert').count()).toBe(0);
    expect(await page.locator('#alerts .empty').textContent()).toBe('No open alerts.');
    await page.uncheck('#open-only');
    expect(await page.locator('.alert.decided').count()).toBe(2);

    // The spectator view shows both decisions as markers.
    const spectator = await browser.newPage();
    await spectator.goto(`${base}/`);
    await expect.poll(() => card(spectator, 2).locator('.marker.decision-stands').count()).toBe(1);
    expect(await card(spectator, 2).locator('.marker').textContent()).toContain('5.4.6 stands');
    expect(await card(spectator, 1).locator('.marker.decision-corrected').count()).toBe(1);
    await shot(spectator, 'spectator-markers');
    await spectator.close();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('an unknown-position after lost events asks for the moves from the score sheet, which reach the hub', async () => {
    const { page, errors } = await signedIn(browser, base, TOKEN);
    // Board 3 (Brazilian) came back from an outage three plies on, further than the search reached.
    const start = Position.initial('brazilian');
    const line: string[] = [];
    let pos = start;
    for (let i = 0; i < 3; i++) {
      const move = legalMoves(pos)[0];
      line.push(moveNotation(pos, move));
      pos = play(pos, move);
    }
    const id = hub.alert(3, {
      id: '1-unknown-position-1',
      rule: 'unknown-position',
      ply: 1,
      side: 'white',
      message: 'board shows no position reachable from the game',
      events: [],
      before: writeFen(start),
      boardShown: pos.toBoardString(),
    });
    const alert = page.locator(`.alert[data-alert="${id}"]`);
    await expect.poll(() => alert.locator('[data-field="gap-moves"]').count()).toBe(1);
    // Spectators are told the game shown is behind the board until the arbiter answers.
    const spectator = await browser.newPage();
    await spectator.goto(`${base}/`);
    const restoring = card(spectator, 3).locator('.badge.restoring');
    await expect.poll(() => restoring.count()).toBe(1);
    expect(await restoring.textContent()).toBe(
      'moves lost in a break of the link: the arbiter restores them',
    );
    expect(await card(spectator, 2).locator('.badge.restoring').count()).toBe(0);
    expect(await alert.locator('[data-act="stands"]').count()).toBe(1);
    await alert.locator('[data-field="gap-moves"]').fill(line.join(' '));
    await alert.locator('[data-act="send-moves"]').click();
    await expect.poll(() => hub.decisions.length).toBe(3);
    expect(hub.decisions[2]).toEqual({
      board: 3,
      decision: { alertId: id, kind: 'moves', pdn: line.join(' ') },
    });
    expect(errors).toEqual([]);
    await spectator.close();
    await page.close();
  });

  it('manages boards: players and round, results, confirming a proposed draw', async () => {
    const { page } = await signedIn(browser, base, TOKEN, { boards: 3 });
    const row = page.locator('#board-rows tr[data-board="3"]');
    expect(await row.locator('.badge').textContent()).toBe('live');
    expect(await row.textContent()).toContain('SIM-3');

    await row.locator('[data-field="white"]').fill('Jansen, Piet');
    await row.locator('[data-act="save-info"]').click();
    await expect.poll(() => hub.snapshot(3)!.info.white).toBe('Jansen, Piet');

    await row.locator('[data-field="result"]').selectOption('0-2');
    await row.locator('[data-act="set-result"]').click();
    // The table's game: board 3 was set up again after its game above, which keeps the result.
    await expect.poll(() => tableGameOf(hub.snapshot(3)!).result).toBe('0-2');
    await expect.poll(() => row.locator('.result').getAttribute('data-result')).toBe('0-2');

    // The record's own 6.5 proposal: three black kings against one, the same position a third time.
    hub.newGame(2, 'W:WK46:BK1,K2,K3');
    for (const m of ['46-41', '1-6', '41-46', '6-1', '46-41', '1-6', '41-46', '6-1']) hub.move(2, m);
    const proposal = page.locator('#board-rows tr[data-board="2"] .proposal');
    await expect.poll(() => proposal.getAttribute('data-proposal')).toBe('1-1');
    expect(await proposal.locator('.advantage').textContent()).toBe('1+ Black · 1− White');
    await shot(page, 'arbiter-boards');
    await proposal.locator('[data-act="confirm"]').click();
    await expect.poll(() => hub.snapshot(2)!.result).toBe('1-1');

    const spectator = await browser.newPage();
    await spectator.goto(`${base}/`);
    await expect
      .poll(() => card(spectator, 3).locator('.player.white .name').textContent())
      .toBe('Jansen, Piet');
    expect(await card(spectator, 3).locator('.result').textContent()).toBe('0-2');
    expect(await card(spectator, 2).locator('.result').textContent()).toBe('1-1');
    await spectator.close();
    await page.close();
  });

  it('shows a board being calibrated in its row, and its state again once the calibration ends', async () => {
    const { page } = await signedIn(browser, base, TOKEN, { boards: 3 });
    const badge = page.locator('#board-rows tr[data-board="1"] .badge');
    const before = await badge.textContent();
    expect(before).not.toBe('being calibrated');
    // Started elsewhere (the calibration page): no board event tells the console.
    const started = hub.calibrate(1, () => {});
    expect(started.ok).toBe(true);
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe('being calibrated');
    expect(await badge.getAttribute('class')).toBe('badge state-calibrating');
    expect(await page.locator('#board-rows tr[data-board="2"] .badge').textContent()).not.toBe(
      'being calibrated',
    );
    await shot(page, 'arbiter-calibrating');
    hub.calibrating.get(1)!.say({ type: 'failed', code: 'cancelled', message: 'cancelled from the console' });
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe(before);
    await page.close();
  });

  it.each([
    {
      what: 'searching for moves lost in a gap, with the positions looked at',
      board: 2,
      map: 'searching' as const,
      value: 120_000,
      text: 'searching for lost moves (120,000 positions)',
      state: 'searching',
    },
    {
      what: 'whose lost moves await the score sheet, with the moves followed since',
      board: 3,
      map: 'following' as const,
      value: 14,
      text: 'moves lost: awaiting the score sheet (14 played since, followed)',
      state: 'following',
    },
  ])('shows a board $what, until it ends', async ({ board, map, value, text, state }) => {
    const { page } = await signedIn(browser, base, TOKEN, { boards: 3 });
    const badge = page.locator(`#board-rows tr[data-board="${board}"] .badge`);
    const before = await badge.textContent();
    hub[map].set(board, value);
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe(text);
    expect(await badge.getAttribute('class')).toBe(`badge state-${state}`);
    hub[map].delete(board);
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe(before);
    await page.close();
  });

  it('asks one board, or every board, for a full dump (resync)', async () => {
    const { page } = await signedIn(browser, base, TOKEN, { boards: 3 });
    const before = hub.resyncs.length;
    await page.locator('#board-rows tr[data-board="2"] [data-act="resync"]').click();
    await expect.poll(() => hub.resyncs.slice(before)).toEqual([[2]]);
    await expect.poll(() => page.locator('.toast').last().textContent()).toContain('board 2');
    await page.locator('#resync-all').click();
    await expect.poll(() => hub.resyncs.slice(before)).toEqual([[2], [1, 2, 3]]);
    await expect.poll(() => page.locator('.toast').last().textContent()).toContain('boards 1, 2, 3');
    await page.close();
  });
});

describe('daemon restart', () => {
  it('takes fresh snapshots when the daemon restarted with other versions (epoch), not events that do not fit', async () => {
    const before = new FakeHub([{ board: 1, white: 'Before, Restart' }]);
    for (const m of ['32-28', '17-21', '34-30']) before.move(1, m);
    const first = await serve(before, { arbiter: TOKEN });
    const gate = await startCutProxy(first.port);
    const page = await browser.newPage();
    try {
      await page.goto(`http://127.0.0.1:${gate.port}/#board-1`);
      await expect.poll(() => moveTexts(page)).toEqual(['32-28', '17-21', '34-30']);
      // The new run's board 1 has other moves and more versions: `since 3` would "fit" there.
      const after = new FakeHub([{ board: 1, white: 'After, Restart' }]);
      for (const m of ['31-27', '17-21', '33-29', '21-26', '29-24']) after.move(1, m);
      const second = await serve(after, { arbiter: TOKEN });
      gate.cut();
      await first.close();
      gate.retarget(second.port);
      gate.restore();
      await expect
        .poll(() => moveTexts(page), { timeout: 10_000 })
        .toEqual(['31-27', '17-21', '33-29', '21-26', '29-24']);
      expect(await page.locator('#detail .player.white .name').textContent()).toBe('After, Restart');
      await second.close();
    } finally {
      await page.close();
      await gate.close();
    }
  });
});

describe('first load', () => {
  it('stays well under 300 KB for each page', async () => {
    for (const path of ['/', '/arbiter']) {
      const page = await browser.newPage();
      let bytes = 0;
      page.on('response', async (r) => {
        const body = await r.body().catch(() => Buffer.alloc(0));
        bytes += body.length;
      });
      await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
      expect(bytes).toBeGreaterThan(5_000);
      expect(bytes).toBeLessThan(150_000);
      await page.close();
    }
  });
});
