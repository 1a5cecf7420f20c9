// HTTP side of the server: JSON API, the round's PDN files and index for broadcasts, health, and the
// viewer's static files. Every GET answer has ETag + Last-Modified and honours conditional requests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { type HubReader, RoundRebuilding } from '../hub.ts';
import { notModified, type ValidatorCache, type Validators } from './conditional.ts';
import { type HealthReport, publicHealth } from './health.ts';
import { boardRows } from './rows.ts';
import { BUILT_IN_WEB_ROOT, PageLanguages } from './languages.ts';
import { type PngLimits, pictureRoutes } from './pictures.ts';
import {
  PdnCache,
  playedGames,
  RoundJson,
  roundFile,
  roundsIndex,
  roundsWithGames,
  tournamentResults,
} from '../views/rounds.ts';
import { standingsCsv, withoutPersonalData, writeTrf } from '../../src/tournament/index.ts';
import { pairingSheet } from '../views/pairing-sheet.ts';
import { SHEET_STYLE_SOURCE, standingsAfter, standingsPage } from '../views/standings.ts';
import type { TournamentSource } from '../tournament/access.ts';
import { staticFile } from './static.ts';

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const CSV_TYPE = 'text/csv; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const PDN_TYPE = 'application/x-draughts-pdn; charset=utf-8';

export interface HttpContext {
  hub: HubReader;
  webRoot?: string;
  validators: ValidatorCache;
  /** The whole health report; /health shows anyone its public view. */
  health: () => HealthReport;
  /** The tournament, for the standings. */
  tournament?: TournamentSource;
  /** Players' birth dates and sex in the public tournament JSON and TRF (default: left out). */
  publicPersonalData?: boolean;
  pngLimits?: Partial<PngLimits>;
}

type Answer = {
  status: number;
  type: string;
  body: string | Buffer;
  validators?: Validators;
  cors?: boolean;
  /** File name for `Content-Disposition`. */
  download?: string;
  vary?: string;
  /** Seconds, for `Retry-After`. */
  retryAfter?: number;
};

const GZIP_MIN = 256;

/**
 * The pages load only the daemon's own scripts, styles and socket. The arbiter console is never
 * framed (a page that frames it could steer the arbiter's clicks); the spectator view may be: clubs
 * embed it.
 */
const PAGE_POLICY =
  `default-src 'self'; script-src 'self'; style-src 'self' ${SHEET_STYLE_SOURCE}; img-src 'self' data:; connect-src 'self'; ` +
  "object-src 'none'; base-uri 'none'; form-action 'self'";
const CONSOLE_PATHS = new Set(['/arbiter', '/arbiter.html', '/calibrate.html']);

/** Headers every answer carries: no type sniffing, no address leaking to other sites. */
function securityHeaders(path: string, type: string): Record<string, string> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  };
  if (type.startsWith('text/html')) {
    const console = CONSOLE_PATHS.has(path);
    headers['Content-Security-Policy'] = console ? `${PAGE_POLICY}; frame-ancestors 'none'` : PAGE_POLICY;
    if (console) headers['X-Frame-Options'] = 'DENY';
  }
  return headers;
}

const wantsGzip = (req: IncomingMessage): boolean =>
  /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));

/** The gzip representation has its own ETag (`"…-gz"`); notModified() accepts either. */
const gzipEtag = (etag: string): string => etag.replace(/"$/, '-gz"');

/**
 * Compressed bodies by address and ETag: one compression per version, however many pollers ask. A
 * static file's ETag is its size and modification time, which two files of a fresh checkout can
 * share: the address keeps one file's bytes from being served for another.
 */
class GzipCache {
  private readonly cache = new Map<string, Buffer>();

  of(body: string | Buffer, path: string, etag: string | undefined): Buffer {
    const key = etag && `${path} ${etag}`;
    const hit = key ? this.cache.get(key) : undefined;
    if (hit) return hit;
    const zipped = gzipSync(body);
    if (key) {
      if (this.cache.size >= 256) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, zipped);
    }
    return zipped;
  }
}

const notFound = (message: string): Answer => ({
  status: 404,
  type: JSON_TYPE,
  body: JSON.stringify({ error: 'not-found', message }),
});

export function createHttpHandler(ctx: HttpContext) {
  const pdn = new PdnCache();
  const gzipped = new GzipCache();

  const roundJson = new RoundJson();
  // Without a web root of its own the server still writes its pages in the built-in languages.
  const languages = new PageLanguages(ctx.webRoot ?? BUILT_IN_WEB_ROOT);
  const pictures = pictureRoutes({
    games: (round) => playedGames(ctx.hub, round),
    validators: ctx.validators,
    pngLimits: ctx.pngLimits,
  });
  const json = (key: string, value: unknown, cors = true): Answer => {
    const body = typeof value === 'string' ? value : JSON.stringify(value);
    return { status: 200, type: JSON_TYPE, body, validators: ctx.validators.of(key, body), cors };
  };
  const pdnAnswer = (key: string, body: string): Answer => ({
    status: 200,
    type: PDN_TYPE,
    body,
    validators: ctx.validators.of(key, body),
    cors: true,
  });

  /** The tournament as anyone may read it (CORS `*`): personal data only when configured. */
  const publicEvent = () => {
    const event = ctx.tournament?.load();
    return event && !ctx.publicPersonalData ? withoutPersonalData(event) : event;
  };

  /**
   * The spectator page with the round's games in it (JSON, not script: the CSP runs none), so its
   * first paint has every board; the WebSocket then brings what changed since.
   */
  const withRoundState = (page: Answer): Answer => {
    const round = ctx.hub.round();
    // The current round's JSON as /api/v1/games keeps it (serialised once per version of its games).
    const games = roundJson.of(round, playedGames(ctx.hub, round));
    const state = `{"round":${round},"games":${games}}`.replace(/</g, '\\u003c');
    const body = String(page.body).replace(
      '</body>',
      `<script type="application/json" id="round-state">${state}</script>\n</body>`,
    );
    return { ...page, body, validators: ctx.validators.of(`/#state#${page.validators?.etag}`, body) };
  };

  async function route(path: string, query: URLSearchParams, req: IncomingMessage): Promise<Answer> {
    const { hub } = ctx;
    if (path === '/health') {
      const report = ctx.health();
      return {
        status: report.ok ? 200 : 503,
        type: JSON_TYPE,
        body: JSON.stringify(publicHealth(report)),
        cors: true,
      };
    }
    if (path === '/api/v1/boards') return json(path, boardRows(hub));
    if (path === '/api/v1/tournament') {
      const event = publicEvent();
      return json(path, {
        round: hub.round(),
        event: event ?? null,
        pairing: ctx.tournament?.pairRound !== undefined,
      });
    }
    if (path === '/api/v1/games') {
      const round = query.has('round') ? Number(query.get('round')) : hub.round();
      if (!Number.isInteger(round) || round < 1) return notFound(`no round "${query.get('round')}"`);
      return json(`${path}?round=${round}`, roundJson.of(round, playedGames(hub, round)));
    }
    let m = /^\/api\/v1\/games\/(\d+)$/.exec(path);
    if (m) {
      const snap = hub.snapshot(Number(m[1]));
      return snap ? json(path, snap) : notFound(`no board ${m[1]} in round ${hub.round()}`);
    }
    if (path === '/api/v1/tournament.trf') {
      const event = publicEvent();
      if (!event) return notFound('no tournament: start the daemon with --tournament FILE');
      const body = writeTrf(event);
      return { status: 200, type: TEXT_TYPE, body, validators: ctx.validators.of(path, body), cors: true };
    }
    m = /^\/rounds\/(\d+)\/pairings(?:\.html)?$/.exec(path);
    if (m) {
      const event = ctx.tournament?.load();
      if (!event) return notFound('no tournament: start the daemon with --tournament FILE');
      const group = query.get('group') ?? undefined;
      const words = await languages.forRequest(`?${query}`, req.headers['accept-language']);
      const body = pairingSheet(event, Number(m[1]), words, group);
      if (!body)
        return notFound(`no pairings of round ${m[1]}${group === undefined ? '' : ` in group "${group}"`}`);
      return {
        status: 200,
        type: HTML_TYPE,
        body,
        validators: ctx.validators.of(`${path}?${query}#${words.code}`, body),
        cors: true,
        vary: 'Accept-Language',
      };
    }
    m = /^\/rounds\/(\d+)\/standings(\.json|\.csv|\.html)?$/.exec(path);
    if (m) {
      const event = ctx.tournament?.load();
      if (!event) return notFound('no tournament: start the daemon with --tournament FILE');
      const group = query.get('group') ?? undefined;
      const doc = standingsAfter(event, Number(m[1]), group);
      if (!doc) return notFound(`no group "${group}"`);
      const key = `${path}?${query}`;
      if (m[2] === '.json') return json(key, doc);
      if (m[2] === '.csv') {
        const body = standingsCsv(doc.groups.flatMap((g) => g.rows));
        return { status: 200, type: CSV_TYPE, body, validators: ctx.validators.of(key, body), cors: true };
      }
      const words = await languages.forRequest(`?${query}`, req.headers['accept-language']);
      const body = standingsPage(
        doc,
        group === undefined ? '' : `?group=${encodeURIComponent(group)}`,
        words,
      );
      return {
        status: 200,
        type: HTML_TYPE,
        body,
        validators: ctx.validators.of(`${key}#${words.code}`, body),
        cors: true,
        vary: 'Accept-Language',
      };
    }
    const picture = await pictures(path, query, req.socket.remoteAddress);
    if (picture) return picture;
    if (path === '/rounds/index.json') {
      const event = ctx.tournament?.load();
      const listed = roundsWithGames(hub);
      if (listed.length === 0) return notFound('no rounds with games yet');
      return json(path, JSON.stringify(roundsIndex(listed, hub.round(), event?.name || undefined, !!event)));
    }
    m = /^\/rounds\/(\d+)\/([^/]+)$/.exec(path);
    if (m) {
      const round = Number(m[1]);
      const games = playedGames(hub, round);
      if (games.length === 0) return notFound(`no games in round ${round}`);
      const file = roundFile(round, games, m[2], pdn, tournamentResults(ctx.tournament, round));
      if (!file) return notFound(`no ${m[2]} in round ${round}`);
      const answer = file.kind === 'pdn' ? pdnAnswer(path, file.body) : json(path, file.body);
      return file.download ? { ...answer, download: file.download } : answer;
    }
    if (ctx.webRoot && !path.startsWith('/api/') && !path.startsWith('/rounds/')) {
      const file = await staticFile(ctx.webRoot, path);
      if (file) {
        const page = await languages.answer(file, req.headers['accept-language']);
        return path === '/' || path === '/index.html' ? withRoundState(page) : page;
      }
    }
    return notFound(`nothing at ${path}`);
  }

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'GET, HEAD, OPTIONS',
          'Access-Control-Allow-Headers': 'If-None-Match, If-Modified-Since',
          'Access-Control-Max-Age': '86400',
        });
        res.end();
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        // Nothing over HTTP changes state: arbiter actions go through the WebSocket API, where the
        // token and the page's origin are checked.
        res.writeHead(405, { Allow: 'GET, HEAD, OPTIONS', 'Content-Type': JSON_TYPE });
        res.end(JSON.stringify({ error: 'method-not-allowed', message: `${req.method} is not served` }));
        return;
      }
      if (url.pathname === '/arbiter/') {
        // The console's assets are relative to the page: serve it at one address only.
        res.writeHead(301, { Location: `/arbiter${url.search}` });
        res.end();
        return;
      }
      const a = await route(url.pathname, url.searchParams, req);
      const headers: Record<string, string> = {
        'Content-Type': a.type,
        'Cache-Control': 'no-cache',
        ...securityHeaders(url.pathname, a.type),
      };
      if (a.download) headers['Content-Disposition'] = `attachment; filename="${a.download}"`;
      if (a.vary) headers.Vary = a.vary;
      if (a.retryAfter !== undefined) headers['Retry-After'] = String(a.retryAfter);
      if (a.cors) {
        headers['Access-Control-Allow-Origin'] = '*';
        headers['Access-Control-Expose-Headers'] = 'ETag, Last-Modified, Content-Disposition';
      }
      // Compressed when the client takes it: venues often have thin uplinks, and PDN shrinks ~5×.
      const gzip = a.status === 200 && wantsGzip(req) && Buffer.byteLength(a.body) >= GZIP_MIN;
      if (gzip) {
        headers['Content-Encoding'] = 'gzip';
        headers.Vary = a.vary ? `${a.vary}, Accept-Encoding` : 'Accept-Encoding';
      }
      if (a.validators) {
        headers.ETag = gzip ? gzipEtag(a.validators.etag) : a.validators.etag;
        headers['Last-Modified'] = a.validators.lastModified.toUTCString();
        if (notModified(req, a.validators)) {
          delete headers['Content-Type'];
          delete headers['Content-Encoding'];
          res.writeHead(304, headers);
          res.end();
          return;
        }
      }
      const body = gzip ? gzipped.of(a.body, `${url.pathname}${url.search}`, a.validators?.etag) : a.body;
      headers['Content-Length'] = String(Buffer.byteLength(body));
      res.writeHead(a.status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      if (e instanceof RoundRebuilding) {
        // A past round being rebuilt off the event loop: there in a moment.
        res.writeHead(503, {
          'Content-Type': JSON_TYPE,
          'Retry-After': '1',
          'Access-Control-Allow-Origin': '*',
        });
        res.end(JSON.stringify({ error: 'busy', message: e.message }));
        return;
      }
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': JSON_TYPE });
      res.end(JSON.stringify({ error: 'internal', message: (e as Error).message }));
    }
  };
}
