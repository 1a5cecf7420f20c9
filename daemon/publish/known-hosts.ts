// OpenSSH's known_hosts, read as sshd(8) "SSH_KNOWN_HOSTS FILE FORMAT" describes it: per line the
// host patterns (comma-separated; `[host]:port` for another port than 22; `*`/`?` wildcards; `!`
// negates; `|1|salt|hash` for a hashed name), the key type and the key in base64. `@revoked` keys
// are refused; `@cert-authority` lines are not keys of the host and are skipped.
import { createHmac } from 'node:crypto';

/** The name a host is looked up under for `port`. */
const lookupName = (host: string, port: number): string =>
  port === 22 ? host.toLowerCase() : `[${host.toLowerCase()}]:${port}`;

function wildcard(pattern: string, name: string): boolean {
  const re = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${re}$`, 'i').test(name);
}

function hashedMatch(entry: string, name: string): boolean {
  const [, , salt, hash] = entry.split('|');
  if (!salt || !hash) return false;
  return createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === hash;
}

/** Whether the patterns of one line name the host: a negated match wins over any other. */
function namesHost(patterns: string, name: string): boolean {
  let matched = false;
  for (const pattern of patterns.split(',')) {
    if (pattern.startsWith('|1|')) {
      if (hashedMatch(pattern, name)) matched = true;
    } else if (pattern.startsWith('!')) {
      if (wildcard(pattern.slice(1), name)) return false;
    } else if (wildcard(pattern, name)) matched = true;
  }
  return matched;
}

export type HostKeyVerdict = 'known' | 'revoked' | 'other-key' | 'unknown-host';

/** What `knownHosts` (the file's text) says of `key` (the server's host key blob) for host:port. */
export function checkHostKey(knownHosts: string, host: string, port: number, key: Buffer): HostKeyVerdict {
  const name = lookupName(host, port);
  let listed = false;
  let known = false;
  for (const raw of knownHosts.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    const marker = fields[0].startsWith('@') ? fields.shift() : undefined;
    const [patterns, , base64] = fields;
    if (!patterns || !base64 || marker === '@cert-authority' || !namesHost(patterns, name)) continue;
    const same = Buffer.from(base64, 'base64').equals(key);
    if (marker === '@revoked') {
      if (same) return 'revoked';
      continue;
    }
    listed = true;
    if (same) known = true;
  }
  return known ? 'known' : listed ? 'other-key' : 'unknown-host';
}
