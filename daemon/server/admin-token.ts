// The admin token a daemon makes for itself when none is configured (as Jupyter does): random,
// kept in the data directory readable by its owner alone, the same at every start until deleted.
import { randomBytes } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir } from '../data-dir.ts';
import type { Tokens } from './auth.ts';

export const ADMIN_TOKEN_FILE = 'admin-token';

/** 192 random bits, URL-safe (it travels in the console's address). */
const newToken = (): string => randomBytes(24).toString('base64url');

export interface MadeToken {
  token: string;
  file: string;
  /** True when this start wrote the file. */
  created: boolean;
}

/** The data directory's admin token, made on first use; a file others could read is closed first. */
export function adminTokenIn(dataDir: string): MadeToken {
  const file = join(dataDir, ADMIN_TOKEN_FILE);
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 16) {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return { token, file, created: false };
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  privateDir(dataDir);
  const token = newToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // an existing short file keeps its mode through writeFileSync
  return { token, file, created: true };
}

/** The tokens the daemon runs with: the configured ones, or else its own admin token. */
export function effectiveTokens(configured: Tokens, dataDir: string): { tokens: Tokens; made?: MadeToken } {
  if (configured.admin || configured.arbiter) return { tokens: configured };
  const made = adminTokenIn(dataDir);
  return { tokens: { admin: made.token }, made };
}
