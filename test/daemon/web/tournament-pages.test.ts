// The console's tournament pages in real headless Chromium: players, pairings (CSV import with
// bad lines), results written through the arbiter's call, standings; against the real server and
// a tournament in a real journal file.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import type { TournamentStore } from '../../../daemon/tournament/store.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { withPairingProgram } from '../../../daemon/tournament/pairing-program.ts';
import { FIXTURES, fixtureEvent, type TempStore, tempStore } from '../../tournament/fixtures/helpers.ts';
import { launchBrowser, SCREENSHOTS, type TestBrowser, watchErrors } from './fixtures/browser.ts';
import { WEB_ROOT } from './fixtures/serve.ts';

const TOKEN = 'tournament-arbiter-3';

/** A hub that can change rounds, as the daemon's round switch does. */
class RoundHub extends FakeHub {
  rounds: number[] = [];
  async setRound(round: number): Promise<void> {
    this.rounds.push(round);
  }
}

let temp: TempStore;
let store: TournamentStore;
let hub: RoundHub;
let server: RunningServer;
let browser: TestBrowser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  temp = tempStore('tournament-pages');
  store = temp.store;
  // Round 7 still being played: its results not in yet.
  const e = fixtureEvent('swiss-2026.trf');
  const open = e.rounds.map((round) =>
    round.number === 7 ? { ...round, pairings: round.pairings.map(({ result: _, ...p }) => p) } : round,
  );
  store.save({ ...e, rounds: open });
  hub = new RoundHub(4, 7);
  server = await startServer({
    hub,
    port: 0,
    tokens: { arbiter: TOKEN },
    webRoot: WEB_ROOT,
    tournament: withPairingProgram(store, {
      command: `${process.execPath} ${join(FIXTURES, 'fake-pairing-program.js')}`,
    }),
  });
  browser = await launchBrowser();
  page = await browser.newPage();
  errors = watchErrors(page);
  await page.goto(`${server.url}/tournament.html?token=${TOKEN}#players`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  temp?.close();
});

const rows = (id: string) => page.locator(`#${id} tr`);

describe('tournament pages', () => {
  it('players: every player with FMJD id and rating; the token left the address bar', async () => {
    await expect.poll(() => rows('players-rows').count()).toBe(9);
    expect(await rows('players-rows').nth(0).locator('td').allTextContents()).toEqual([
      '1',
      'Boomstra, Roel',
      '16241',
      '1402',
      'NED',
      '',
      '',
      'Edit Withdraw',
    ]);
    expect(page.url()).not.toContain('token=');
    expect(await page.locator('#event-title').textContent()).toBe('Open Kampioenschap 2026');
  });

  it('players: one player edited in the form, prefilled; a refusal shown at its field, then saved', async () => {
    await page.goto(`${server.url}/tournament.html#players`);
    await expect.poll(() => rows('players-rows').count()).toBe(9);
    await page.locator('#players-rows button[data-edit="3"]').click();
    const dialog = page.locator('#player-dialog');
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await page.locator('#player-title').textContent()).toBe('Edit player Baliakin, Jan');
    const field = (name: string) => page.locator(`#player-form [name="${name}"]`);
    expect(await field('name').inputValue()).toBe('Baliakin, Jan');
    expect(await field('rating').inputValue()).toBe('1362');
    expect(await field('federation').inputValue()).toBe('NED');
    expect(await field('fmjdId').inputValue()).toBe('17001');
    expect(await field('birth').inputValue()).toBe('2001');

    await field('rating').fill('high');
    await page.locator('#player-form button[type="submit"]').click();
    const refused = page.locator('#player-errors');
    await expect.poll(() => refused.isVisible()).toBe(true);
    expect(await refused.textContent()).toBe('param.rating: must be a whole number from 0');
    expect(await field('rating').getAttribute('aria-invalid')).toBe('true');
    expect(store.load()?.players[2].rating).toBe(1362);

    await field('name').fill('Baliakin, Jan-Willem');
    await field('rating').fill('1380');
    await field('club').fill('DC Groningen');
    await field('title').fill('MF');
    await field('birth').fill('');
    await page.screenshot({ path: join(SCREENSHOTS, 'tournament-player-form.png'), fullPage: true });
    await page.locator('#player-form button[type="submit"]').click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(store.load()?.players[2]).toEqual({
      start: 3,
      name: 'Baliakin, Jan-Willem',
      fmjdId: '17001',
      rating: 1380,
      federation: 'NED',
      club: 'DC Groningen',
      title: 'MF',
    });
    await expect
      .poll(() => rows('players-rows').nth(2).locator('td').allTextContents())
      .toEqual(['3', 'Baliakin, Jan-Willem', '17001', '1380', 'NED', 'DC Groningen', '', 'Edit Withdraw']);
    expect(await page.locator('.toast').last().textContent()).toBe('Player saved.');
  });

  it('players in Polish: the form speaks the page’s language', async () => {
    await page.goto(`${server.url}/tournament.html?lang=pl#players`);
    await expect.poll(() => rows('players-rows').count()).toBe(9);
    const edit = page.locator('#players-rows button[data-edit="1"]');
    expect(await edit.textContent()).toBe('Edytuj');
    await edit.click();
    // The form opens once the arbiter's call has brought the player's whole record.
    await expect.poll(() => page.locator('#player-dialog').isVisible()).toBe(true);
    expect(await page.locator('#player-title').textContent()).toBe('Edytuj zawodnika Boomstra, Roel');
    expect(await page.locator('#player-form label').nth(6).locator('span').textContent()).toBe(
      'Data urodzenia',
    );
    await page.locator('#player-cancel').click();
    await expect.poll(() => page.locator('#player-dialog').isVisible()).toBe(false);
    await page.goto(`${server.url}/tournament.html?lang=en#players`);
  });

  it('results: a result chosen is written to the table through the arbiter call', async () => {
    await page.goto(`${server.url}/tournament.html#results`);
    await page.locator('#results-round').selectOption('7');
    const select = page.locator('#results-rows select[data-table="1"]');
    await expect.poll(() => select.inputValue()).toBe('*');
    await select.selectOption('1--1+');
    await expect
      .poll(() => store.load()?.rounds[6].pairings[0].result)
      .toEqual({ kind: 'game', score: '1-1', advantage: 'black' });
  });

  it('standings: the table after the chosen round, with the tie-breaks', async () => {
    await page.goto(`${server.url}/tournament.html#standings`);
    await page.locator('#standings-round').selectOption('6');
    await expect.poll(() => page.locator('#standings-tables tbody tr').count()).toBe(9);
    const first = page.locator('#standings-tables tbody tr').nth(0).locator('td');
    await expect
      .poll(async () => (await first.allTextContents()).slice(1, 4))
      .toEqual(['1', 'Boomstra, Roel', '10']);
    expect(await page.locator('#standings-link').getAttribute('href')).toBe('rounds/6/standings?lang=en');
  });

  it('standings in Dutch: the tie-breaks as the draughts world names them, and the page link in Dutch too', async () => {
    await page.goto(`${server.url}/tournament.html?lang=nl#standings`);
    await page.locator('#standings-round').selectOption('6');
    await expect.poll(() => page.locator('#standings-tables tbody tr').count()).toBe(9);
    const solkoff = page.locator('#standings-tables thead abbr').first();
    expect(await solkoff.textContent()).toBe('WP');
    expect(await solkoff.getAttribute('title')).toBe('Weerstandspunten');
    expect(await page.locator('#standings-title').textContent()).toBe('Stand');
    expect(await page.locator('#standings-link').getAttribute('href')).toBe('rounds/6/standings?lang=nl');
    await page.goto(`${server.url}/tournament.html?lang=en#standings`);
  });

  it('standings in Polish: decimals as a Polish reader writes them (45,5), as the English page writes 45.5', async () => {
    const cells = async (lang: string) => {
      await page.goto(`${server.url}/tournament.html?lang=${lang}#standings`);
      await page.locator('#standings-round').selectOption('7');
      await expect.poll(() => page.locator('#standings-tables tbody tr').count()).toBe(9);
      return page.locator('#standings-tables tbody td').allTextContents();
    };
    const english = await cells('en');
    const polish = await cells('pl');
    const halves = english.filter((c) => /^\d+\.\d+$/.test(c));
    expect(halves.length).toBeGreaterThan(0);
    expect(polish.filter((c) => /^\d+,\d+$/.test(c))).toEqual(halves.map((c) => c.replace('.', ',')));
    expect(polish.some((c) => /^\d+\.\d+$/.test(c))).toBe(false);
    await page.goto(`${server.url}/tournament.html?lang=en#standings`);
  });

  it('the spectator page links the standings after the last round played, and names each board by its table and group, in its language', async () => {
    const spectator = await browser.newPage();
    await spectator.goto(`${server.url}/?lang=pl`);
    const link = spectator.locator('#standings');
    await expect.poll(() => link.isVisible()).toBe(true);
    expect(await link.textContent()).toBe('Klasyfikacja');
    expect(await link.getAttribute('href')).toBe('rounds/6/standings?lang=pl');
    // Each board is its table (with the group its players play in, where the event has groups).
    const first = spectator.locator('.card[data-board="1"] .board-no');
    await expect.poll(() => first.textContent()).toBe('Stół 1');
    await spectator.close();
  });

  it('pairings: a CSV with bad lines is refused line by line; a good one is a new round to start', async () => {
    await page.goto(`${server.url}/tournament.html#pairings`);
    await page.locator('#page-pairings details summary').click();
    await page.locator('#import-round').fill('8');
    await page.locator('#pairings-csv').fill('board,white,black\n1,1,8\n2,Nobody,5\n3,2,2\n');
    await page.locator('#pairings-import').click();
    const shown = page.locator('#pairings-errors');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const text = (await shown.textContent()) ?? '';
    expect(text).toContain('3: no player is called "Nobody"');
    expect(text).toContain('4: ');
    expect(store.load()?.rounds.map((r) => r.number)).toEqual([1, 2, 3, 4, 5, 6, 7]);

    await page
      .locator('#pairings-csv')
      .fill('board,white,black\n1,"Boomstra, Roel",8\n2,2,5\n3,3,7\n4,6,9\n5,4,bye\n');
    await page.locator('#pairings-import').click();
    await expect.poll(() => store.load()?.rounds.length).toBe(8);
    await page.locator('#pairings-round').selectOption('8');
    expect(await rows('pairings-rows').nth(0).locator('td').allTextContents()).toEqual([
      '1',
      'Boomstra, Roel',
      'Janssen, Tom',
      'Swap colours',
    ]);
    expect(await page.locator('#pairings-byes').textContent()).toBe('Byes: de Vries, Anna (bye)');
    await page.locator('#round-start').click();
    await expect.poll(() => hub.rounds).toEqual([8]);

    // Round 9 from the pairing program, shown at once.
    await page.locator('#round-pair').click();
    await expect.poll(() => store.load()?.rounds.length, { timeout: 15_000 }).toBe(9);
    await expect.poll(() => page.locator('#pairings-round').inputValue()).toBe('9');
    await expect.poll(() => rows('pairings-rows').count()).toBe(4);
    await page.screenshot({ path: join(SCREENSHOTS, 'tournament-pairings.png'), fullPage: true });
    expect(errors).toEqual([]);
  });
});

describe('paper for the hall’s wall', () => {
  it('the standings and the pairing sheet fit A4 (794 px), in the reader’s language; printed A4 too', async () => {
    const sheet = await browser.newPage();
    try {
      await sheet.setViewportSize({ width: 794, height: 1123 });
      const width = () => sheet.evaluate('document.documentElement.scrollWidth') as Promise<number>;
      await sheet.goto(`${server.url}/rounds/6/standings`);
      expect(await sheet.locator('table.standings tbody tr').count()).toBeGreaterThan(0);
      expect(await width()).toBeLessThanOrEqual(794);
      await sheet.screenshot({ path: join(SCREENSHOTS, 'standings-a4.png'), fullPage: true });
      await sheet.goto(`${server.url}/rounds/6/pairings?lang=nl`);
      expect(await sheet.locator('h1').textContent()).toContain('Indeling ronde 6');
      expect(await sheet.locator('table.pairings tbody tr').count()).toBe(4);
      expect(await sheet.locator('table.pairings thead th').allTextContents()).toEqual([
        'Bord',
        'Wit',
        'Uitslag',
        'Zwart',
      ]);
      expect(await width()).toBeLessThanOrEqual(794);
      await sheet.screenshot({ path: join(SCREENSHOTS, 'pairings-a4.png'), fullPage: true });
      // As printed: A4 pages, nothing cut at the right edge.
      await sheet.emulateMedia({ media: 'print' });
      expect(await width()).toBeLessThanOrEqual(794);
      const pdf = await sheet.pdf({ format: 'A4' });
      expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
      expect((await sheet.request.get(`${server.url}/rounds/99/pairings`)).status()).toBe(404);
    } finally {
      await sheet.close();
    }
  });

  it('results: a proposed result awaiting the arbiter is shown on its table, and confirmed there', async () => {
    // The players of table 2 show the result on the board (the kings in the centre): proposed.
    hub.feed(2, { type: 'result-gesture', t: 50_000, result: '0-2' });
    await page.goto(`${server.url}/tournament.html#results`);
    await page.locator('#results-round').selectOption('7');
    const proposal = page.locator('#results-rows tr').nth(1).locator('.proposal');
    await expect.poll(() => proposal.textContent()).toContain('0-2');
    await proposal.locator('button[data-confirm="2"]').click();
    await expect.poll(() => hub.snapshot(2)?.result).toBe('0-2');
    expect(errors).toEqual([]);
  });
});

describe('without a pairing program', () => {
  it('the console offers the manual route (the pairings CSV, open), not a button that can only refuse', async () => {
    const bare = await startServer({
      hub,
      port: 0,
      tokens: { arbiter: TOKEN },
      webRoot: WEB_ROOT,
      tournament: store,
    });
    const p = await browser.newPage();
    const pageErrors = watchErrors(p);
    try {
      await p.goto(`${bare.url}/tournament.html?token=${TOKEN}#players`);
      await p.goto(`${bare.url}/tournament.html#pairings`);
      await expect.poll(() => p.locator('#pair-manual').isVisible()).toBe(true);
      expect(await p.locator('#round-pair').isVisible()).toBe(false);
      expect(await p.locator('#pairings-import-box').getAttribute('open')).not.toBeNull();
      await p.locator('#pairings-round').selectOption('6');
      expect(await p.locator('#pairings-sheet').getAttribute('href')).toBe('rounds/6/pairings');
      // With one, the button is there.
      await page.goto(`${server.url}/tournament.html#pairings`);
      await expect.poll(() => page.locator('#round-pair').isVisible()).toBe(true);
      expect(await page.locator('#pair-manual').isVisible()).toBe(false);
      expect(pageErrors).toEqual([]);
    } finally {
      await p.close();
      await bare.close();
    }
  });
});

describe('the round’s loop in the console', () => {
  it('the round just paired reviewed (colours swapped, the bye given to another), then started on the boards', async () => {
    // Round 9, paired by the program above and not started yet.
    await page.goto(`${server.url}/tournament.html#pairings`);
    const next = Math.max(...store.load()!.rounds.map((r) => r.number));
    await expect.poll(() => page.locator('#pairings-round option').count()).toBeGreaterThan(0);
    await page.locator('#pairings-round').selectOption(String(next));
    await expect.poll(() => page.locator('#pairings-review').isVisible()).toBe(true);
    const before = store.load()!.rounds.find((r) => r.number === next)!;
    // Table 1's colours swapped.
    await page.locator('[data-swap="1"]').click();
    await expect
      .poll(() => store.load()!.rounds.find((r) => r.number === next)!.pairings[0])
      .toMatchObject({ white: before.pairings[0].black, black: before.pairings[0].white });
    // The page shows it (it draws the round again, selects included, before anything is chosen).
    const nameOf = (start: number) => store.load()!.players.find((p) => p.start === start)!.name;
    await expect
      .poll(() => page.locator('#pairings-rows tr').first().locator('td').nth(1).textContent())
      .toBe(nameOf(before.pairings[0].black));
    // The bye given to table 2's white: exchanged with the one who had it.
    const bye = before.byes.find((b) => b.kind === 'pairing')!.player;
    const other = before.pairings[1].white;
    await page.locator('#exchange-a').selectOption(String(bye));
    await page.locator('#exchange-b').selectOption(String(other));
    await page.locator('#exchange').click();
    await expect
      .poll(() => store.load()!.rounds.find((r) => r.number === next)!.byes)
      .toContainEqual({ player: other, kind: 'pairing' });
    expect(store.load()!.rounds.find((r) => r.number === next)!.pairings[1].white).toBe(bye);
    await page.screenshot({ path: join(SCREENSHOTS, 'tournament-review.png'), fullPage: true });
    // Started on the boards.
    await page.locator('#round-start').click();
    await expect.poll(() => hub.rounds.at(-1)).toBe(next);
    // A player withdraws after the round being played, and comes back.
    await page.goto(`${server.url}/tournament.html#players`);
    await page.locator('[data-withdraw="4"]').click();
    const round = hub.round();
    await expect.poll(() => store.load()!.players.find((p) => p.start === 4)?.withdrawn).toBe(round + 1);
    await expect
      .poll(() => page.locator('.withdrawn').textContent())
      .toBe(`withdrawn from round ${round + 1}`);
    await page.locator('[data-return="4"]').click();
    await expect.poll(() => store.load()!.players.find((p) => p.start === 4)?.withdrawn).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
