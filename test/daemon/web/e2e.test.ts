// End to end: simulated boards play a round over tcp, `damlink run` (a real child process) tracks it,
// and real headless Chromium watches the spectator view and works the arbiter console.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GameSnapshot } from '../../../src/game/types.ts';
import { type Simulation, startSimulation } from '../../../simulator/index.ts';
import { launchBrowser, SCREENSHOTS, type TestBrowser, signedIn, watchErrors } from './fixtures/browser.ts';
import { type CutProxy, startCutProxy } from './fixtures/cut-proxy.ts';

const ROOT = join(import.meta.dirname, '../../..');
const TOKEN = 'e2e-arbiter-token';
const BOARDS = 3;

let sim: Simulation;
let daemon: ChildProcess;
let daemonUrl: string;
let dataDir: string;
let proxy: CutProxy;
let base: string;
let browser: TestBrowser;

/** Starts `damlink run` on a free port and resolves with its URL once it serves. */
function startDaemon(sources: string[]): Promise<string> {
  daemon = spawn(
    process.execPath,
    [
      join(ROOT, 'bin', 'damlink.js'),
      'run',
      ...sources.flatMap((s) => ['--board', s]),
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--event',
      'damlink e2e',
      '--log-level',
      'warn',
    ],
    { cwd: ROOT, env: { ...process.env, DAMLINK_TOKENS__ARBITER: TOKEN }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`damlink run did not start:\n${out}`)), 30_000);
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /open (http:\/\/[\d.]+:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    daemon.stdout!.on('data', read);
    daemon.stderr!.on('data', read);
    daemon.once('exit', (code) => reject(new Error(`damlink run exited with ${code}:\n${out}`)));
  });
}

/** The daemon's own view of a board, straight from its HTTP API (not through the cut proxy). */
async function daemonGame(board: number): Promise<GameSnapshot> {
  return (await fetch(`${daemonUrl}/api/v1/games/${board}`)).json() as Promise<GameSnapshot>;
}

const moveTexts = (page: Page) => page.locator('.move-list .move[data-ply]').allTextContents();
const shot = (page: Page, name: string) =>
  page.screenshot({ path: join(SCREENSHOTS, `e2e-${name}.png`), fullPage: true });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'damlink-web-e2e-'));
  // Speed 3: fast enough for a short test, slow enough for the tracker's settle times.
  sim = await startSimulation({
    boards: BOARDS,
    transport: 'tcp',
    speed: 3,
    seed: 7,
    game: { inject: ['5.4.6'], injectProbability: 0.15 },
  });
  daemonUrl = await startDaemon(sim.boards.map((b) => b.address));
  proxy = await startCutProxy(Number(new URL(daemonUrl).port));
  base = `http://127.0.0.1:${proxy.port}`;
  browser = await launchBrowser();
}, 60_000);

afterEach(() => proxy?.restore());

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  if (daemon && daemon.exitCode === null) {
    const exited = new Promise((r) => daemon.once('exit', r));
    daemon.kill('SIGTERM');
    await exited;
  }
  await sim?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a simulated round through damlink run, in headless Chromium', () => {
  let spectator: Page;
  let errors: string[];

  it('shows every board, and moves appear live without reload', async () => {
    spectator = await browser.newPage();
    errors = watchErrors(spectator);
    await spectator.goto(`${base}/`);
    await expect.poll(() => spectator.locator('.card').count(), { timeout: 15_000 }).toBe(BOARDS);
    await expect.poll(() => spectator.locator('#status').getAttribute('data-status')).toBe('open');
    const moves = spectator.locator('.card[data-board="1"] .last-move');
    const seen = Number(await moves.getAttribute('data-moves'));
    await expect
      .poll(async () => Number(await moves.getAttribute('data-moves')), { timeout: 20_000 })
      .toBeGreaterThan(seen + 1);
    expect(await spectator.locator('.card[data-board="1"] .badge').textContent()).toBe('live');
    // What the card shows is what the daemon recorded.
    await expect
      .poll(async () => {
        const game = await daemonGame(1);
        const text = await moves.textContent();
        return text?.endsWith(` ${game.moves.at(-1)?.pdn}`);
      })
      .toBe(true);
    await shot(spectator, 'grid');
    expect(await spectator.evaluate("performance.getEntriesByType('navigation').length")).toBe(1);
  });

  it('opens one board and navigates its moves', async () => {
    await spectator.locator('.card[data-board="1"]').click();
    await expect.poll(() => spectator.locator('#detail').isVisible()).toBe(true);
    await expect
      .poll(async () => (await moveTexts(spectator)).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(4);
    const game = await daemonGame(1);
    const ply = spectator.locator('.ply-info');
    const fen = () => spectator.locator('#detail svg.board').getAttribute('data-fen');
    await spectator.keyboard.press('Home');
    expect(await ply.getAttribute('data-ply')).toBe('0');
    expect(await fen()).toBe(game.startFen);
    await spectator.keyboard.press('ArrowRight');
    await spectator.keyboard.press('ArrowRight');
    expect(await ply.getAttribute('data-ply')).toBe('2');
    expect(await spectator.locator('.move.current').textContent()).toBe(game.moves[1].pdn);
    expect(await fen()).toBe(game.moves[1].fenAfter);
    await spectator.click('[data-nav="back"]');
    expect(await spectator.locator('.move.current').textContent()).toBe(game.moves[0].pdn);
    await shot(spectator, 'board-navigated');
    await spectator.keyboard.press('End');
    await expect
      .poll(async () => (await ply.getAttribute('data-ply')) === (await ply.getAttribute('data-total')))
      .toBe(true);
  });

  it('loses and regains the connection, then shows exactly the daemon’s moves (none twice)', async () => {
    const before = (await daemonGame(1)).version;
    proxy.cut();
    await expect.poll(() => spectator.locator('#status').getAttribute('data-status')).not.toBe('open');
    // The round goes on while the spectator is offline.
    await expect
      .poll(async () => (await daemonGame(1)).version, { timeout: 20_000 })
      .toBeGreaterThan(before + 1);
    proxy.restore();
    await expect
      .poll(() => spectator.locator('#status').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('open');
    await expect
      .poll(
        async () => {
          const [shown, game] = await Promise.all([moveTexts(spectator), daemonGame(1)]);
          return JSON.stringify(shown) === JSON.stringify(game.moves.map((m) => m.pdn));
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    expect(await spectator.evaluate("performance.getEntriesByType('navigation').length")).toBe(1);
  });

  it('gets an injected irregularity in the arbiter console, records a decision, and the spectator sees it', async () => {
    const refused = await browser.newPage();
    await refused.goto(`${base}/arbiter`);
    await expect.poll(() => refused.locator('#token-form').isVisible()).toBe(true);
    expect(await refused.locator('#console').isVisible()).toBe(false);
    await refused.close();

    const { page: arbiter, errors: arbiterErrors } = await signedIn(browser, base, TOKEN, { boards: BOARDS });
    const open = arbiter.locator('.alert.open[data-rule="5.4.6"]').first();
    await expect.poll(() => open.count(), { timeout: 60_000 }).toBe(1);
    const board = Number(await open.getAttribute('data-board'));
    const alertId = (await open.getAttribute('data-alert'))!;
    expect(await open.locator('.rule-text').textContent()).toBe(
      'A non-capturing move was played while a capture was possible.',
    );
    expect(await open.locator('.timeline li').count()).toBeGreaterThan(0);
    await shot(arbiter, 'arbiter-alert');

    await arbiter.locator(`.alert[data-alert="${alertId}"] [data-act="stands"]`).click();
    await expect
      .poll(async () => (await daemonGame(board)).alerts.find((a) => a.id === alertId)?.decision?.kind, {
        timeout: 10_000,
      })
      .toBe('stands');
    await expect
      .poll(() =>
        arbiter.locator(`.alert[data-alert="${alertId}"] .decision-done`).getAttribute('data-decision'),
      )
      .toBe('stands');

    // The spectator page (still open, still live) shows the decision as a marker.
    await spectator.keyboard.press('Escape');
    const marker = spectator.locator(`.card[data-board="${board}"] .marker[data-alert="${alertId}"]`);
    await expect.poll(() => marker.count(), { timeout: 10_000 }).toBe(1);
    expect(await marker.textContent()).toContain('5.4.6 stands');
    const pdn = await (await fetch(`${daemonUrl}/rounds/1/${board}.pdn`)).text();
    expect(pdn).toContain('arbiter: stands');
    await shot(spectator, 'spectator-marker');
    expect(arbiterErrors).toEqual([]);
    expect(errors).toEqual([]);
    await arbiter.close();
  });
});
