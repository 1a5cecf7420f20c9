// The console's "Published" panel (plain browser JS) rendered from /health's publish entries.
import { describe, expect, it } from 'vitest';

const web = (name: string) => import(new URL(`../../daemon/web/js/${name}`, import.meta.url).href);

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
    const { publishStatus } = await web('publish.js');
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
