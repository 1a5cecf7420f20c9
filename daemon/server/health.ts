// The daemon's health: the whole report for the arbiter (the WebSocket `health` call: error texts,
// publish targets), and what anyone may read at `/health` — states and counts, no addresses, logins
// or error messages, which would tell a stranger where the round is uploaded and what fails there.
import type { HubReader } from '../hub.ts';
import { publishStatus } from '../web/shared/publish-status.js';

export interface HealthReport {
  ok: boolean;
  reason?: string;
  round: number;
  boards: number;
  active: number;
  [part: string]: unknown;
}

/** The whole report: the hub's boards and journal, and the facts the server adds (clients, log, publish…). */
export function healthReport(hub: HubReader, facts: Record<string, unknown>): HealthReport {
  const boards = hub.boards();
  const all = { ...facts, ...(hub.journalHealth ? { journal: hub.journalHealth() } : {}) };
  // A part that cannot write (the journal, the log file) makes the daemon unhealthy: 503.
  const failing = Object.entries(all).flatMap(([part, fact]) =>
    (fact as { ok?: unknown } | null)?.ok === false ? [[part, (fact as { reason?: string }).reason]] : [],
  );
  return {
    ok: failing.length === 0,
    ...(failing.length > 0 ? { reason: failing.map(([part, why]) => `${part}: ${why}`).join('; ') } : {}),
    round: hub.round(),
    boards: boards.length,
    active: boards.filter((b) => b.state === 'active').length,
    ...all,
  };
}

const FACT_TEXTS = new Set(['reason', 'since', 'target', 'lastError', 'retryAt', 'uploading']);

/** What `/health` shows anyone: every part's state and counts; which part fails, not why. */
export function publicHealth(report: HealthReport): HealthReport {
  const shown: HealthReport = { ...report };
  for (const [part, fact] of Object.entries(report)) {
    if (part === 'publish' && Array.isArray(fact)) {
      shown.publish = fact.map((t) => ({
        status: publishStatus(t),
        pending: t.pending,
        failures: t.failures,
        lastSuccess: t.lastSuccess,
      }));
    } else if (fact && typeof fact === 'object' && !Array.isArray(fact)) {
      shown[part] = Object.fromEntries(Object.entries(fact).filter(([k]) => !FACT_TEXTS.has(k)));
    }
  }
  if (!report.ok) {
    const failing = Object.entries(report).filter(([, f]) => (f as { ok?: unknown } | null)?.ok === false);
    shown.reason = failing.map(([part]) => `${part}: failing`).join('; ');
  }
  return shown;
}
