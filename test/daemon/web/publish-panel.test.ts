// The console's "Published" panel (plain browser JS) rendered from /health's publish entries, and in Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startPublishing } from '../../../daemon/publish/index.ts';
import { startServer } from '../../../daemon/server/index.ts';
import { freePort } from '../../integration/fixtures/file-servers.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { launchBrowser, signedIn } from './fixtures/browser.ts';
import { WEB_ROOT } from './fixtures/serve.ts';
import { web } from './fixtures/web-module.ts';

const base = {
  target: 'sftp://damlink@example.org:22/www',
  pending: 0,
  uploading: false,
  lastSuccess: Date.UTC(2026, 10, 29, 13, 2, 5),
  lastError: null,
  failures: 0,
  retryAt: null,
};

describe('publish.js', () => {
  it('tells ok, sending and failing apart', async () => {
    const { publishStatus } = await web('publish-status.js');
    expect(publishStatus(base)).toBe('ok');
    expect(publishStatus({ ...base, pending: 3 })).toBe('sending');
    expect(publishStatus({ ...base, uploading: true })).toBe('sending');
    expect(publishStatus({ ...base, pending: 3, failures: 2 })).toBe('failing');
  });

  it('a failing target shows its error (escaped) and the next try; an ok one no stale error', async () => {
    const { publishRowsHtml } = await web('publish.js');
    const at = Date.UTC(2026, 10, 29, 13, 5, 0);
    const failing = {
      ...base,
      pending: 4,
      failures: 3,
      lastError: { at, message: 'All configured authentication methods failed <b>' },
      retryAt: at + 4000,
    };
    const html = publishRowsHtml([failing, { ...base, lastError: failing.lastError }]);
    const rows = html.split('</tr>').filter(Boolean);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('data-status="failing"');
    expect(rows[0]).toContain('authentication methods failed &lt;b&gt;');
    expect(rows[0]).toContain('next try');
    expect(rows[0]).toContain('<td>4</td>');
    expect(rows[1]).toContain('data-status="ok"');
    expect(rows[1]).not.toContain('authentication');
    expect(publishRowsHtml([{ ...base, lastSuccess: null }])).toContain('never');
  });
});

describe("the console's Published panel in Chromium", () => {
  it('shows a folder that holds the round and an FTP server that refuses the connection', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'damlink-panel-'));
    const hub = new FakeHub(2, 1);
    const publishing = startPublishing({
      hub,
      config: {
        targets: [
          { kind: 'directory', path: folder },
          // Nothing listens there: every try is refused.
          {
            kind: 'ftp',
            host: '127.0.0.1',
            port: await freePort(),
            user: 'club',
            password: 'pw',
            secure: false,
            dir: '/',
          },
        ],
        coalesceMs: 50,
        retry: { firstMs: 100, maxMs: 500 },
        timeoutMs: 2000,
      },
      log: { info() {}, warn() {} },
    });
    const server = await startServer({
      hub,
      port: 0,
      tokens: { arbiter: 'panel-token' },
      webRoot: WEB_ROOT,
      health: () => ({ publish: publishing.state() }),
    });
    const browser = await launchBrowser();
    try {
      const { page, errors } = await signedIn(browser, server.url, 'panel-token');
      await expect.poll(() => page.locator('#publish').isVisible(), { timeout: 10_000 }).toBe(true);
      const rows = page.locator('#publish-rows tr');
      await expect.poll(() => rows.count()).toBe(2);
      await expect.poll(() => rows.nth(1).getAttribute('data-status'), { timeout: 10_000 }).toBe('failing');
      expect(await rows.nth(0).getAttribute('data-status')).toBe('ok');
      expect(await rows.nth(0).textContent()).toContain(`directory ${folder}`);
      expect(await rows.nth(1).locator('.publish-error').textContent()).toContain('ECONNREFUSED');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
      await publishing.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
