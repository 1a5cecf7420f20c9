// The arbiter console tells the arbiter at once when the daemon cannot write its journal (or its
// log file): a banner from /health, gone once writing works again. Real server, real Chromium.
import { describe, expect, it } from 'vitest';
import type { JournalHealth } from '../../daemon/hub.ts';
import { startServer } from '../../daemon/server/index.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { launchBrowser, signedIn } from '../daemon/web/fixtures/browser.ts';
import { WEB_ROOT } from '../daemon/web/fixtures/serve.ts';

class DiskHub extends FakeHub {
  journal: JournalHealth = { ok: true, behind: 0, bound: 100_000 };
  journalHealth(): JournalHealth {
    return this.journal;
  }
}

describe('the arbiter console on a daemon whose journal cannot write', () => {
  it('shows a banner with the reason while /health says so, and none after', async () => {
    const hub = new DiskHub(2, 1);
    const server = await startServer({
      hub,
      port: 0,
      tokens: { arbiter: 'banner-token' },
      webRoot: WEB_ROOT,
    });
    const browser = await launchBrowser();
    try {
      const { page, errors } = await signedIn(browser, server.url, 'banner-token');
      const banner = page.locator('#storage');
      expect(await banner.isVisible()).toBe(false);

      hub.journal = {
        ok: false,
        behind: 812,
        bound: 100_000,
        reason: 'SQLITE_FULL: database or disk is full',
        since: Date.now(),
      };
      const res = await fetch(`${server.url}/health`);
      expect(res.status).toBe(503);
      // Anyone's /health says which part fails; the console, which asks as the arbiter, says why.
      const shown = (await res.json()) as { reason: string; journal: object };
      expect(shown.reason).toBe('journal: failing');
      expect(shown.journal).toEqual({ ok: false, behind: 812, bound: 100_000 });
      await expect.poll(() => banner.isVisible(), { timeout: 12_000 }).toBe(true);
      const text = await banner.textContent();
      expect(text).toContain('SQLITE_FULL: database or disk is full');
      expect(text).toContain('812 board inputs');
      expect(text).toMatch(/refused until it writes again/);

      hub.journal = { ok: true, behind: 0, bound: 100_000 };
      await expect.poll(() => banner.isVisible(), { timeout: 12_000 }).toBe(false);
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  }, 60_000);
});
