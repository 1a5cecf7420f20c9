// An SFTP server as a publish target: one connection kept open between uploads, opened again
// after any failure; files written to a temp name and renamed over the old one.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import type { PublishTarget } from '../config/index.ts';
import { checkHostKey } from './known-hosts.ts';
import { type PublishFile, scrubbed, tempNameOf, type Uploader } from './types.ts';

type SftpTarget = Extract<PublishTarget, { kind: 'sftp' }>;

/** `SHA256:…` of a host key, as `ssh-keygen -l` prints it. */
export const fingerprintOf = (key: Buffer): string =>
  `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

export function sftpUploader(target: SftpTarget, timeoutMs: number): Uploader {
  const secrets = [target.password, target.passphrase];
  let client: SftpClient | undefined;
  let made = new Set<string>();
  let key: Promise<Buffer> | undefined;

  const drop = (c: SftpClient | undefined) => {
    if (c && c === client) {
      client = undefined;
      made = new Set();
      void c.end().catch(() => {});
    }
  };

  async function connected(): Promise<SftpClient> {
    if (client) return client;
    if (target.privateKey) key ??= readFile(target.privateKey);
    const privateKey = key ? await key.catch(() => undefined) : undefined;
    if (target.privateKey && !privateKey) {
      key = undefined;
      throw new Error(`cannot read the private key ${target.privateKey}`);
    }
    const fingerprint = target.hostFingerprint?.replace(/=$/, '');
    const knownHosts = target.knownHosts
      ? await readFile(target.knownHosts, 'utf8').catch(() => {
          throw new Error(`cannot read the known_hosts file ${target.knownHosts}`);
        })
      : undefined;
    /** Why the server's key was refused, for the error. */
    let refusedKey: string | undefined;
    const hostVerifier = (hostKey: Buffer): boolean => {
      if (fingerprint !== undefined) {
        const seen = fingerprintOf(hostKey);
        if (seen === fingerprint) return true;
        refusedKey = `the server's host key is ${seen}, not the hostFingerprint configured`;
        return false;
      }
      if (knownHosts !== undefined) {
        const verdict = checkHostKey(knownHosts, target.host, target.port, hostKey);
        if (verdict === 'known') return true;
        refusedKey = `the server's host key (${fingerprintOf(hostKey)}) is ${verdict === 'unknown-host' ? `not in ${target.knownHosts} for this host` : verdict === 'revoked' ? 'revoked' : `not the one ${target.knownHosts} lists`}`;
        return false;
      }
      return target.acceptAnyHostKey === true;
    };
    // The library's own handlers print to the console; a dropped link only means "connect again".
    const c: SftpClient = new SftpClient('publish', {
      error: () => drop(c),
      end: () => drop(c),
      close: () => drop(c),
    });
    const connecting = c.connect({
      host: target.host,
      port: target.port,
      username: target.user,
      password: target.password,
      privateKey,
      passphrase: target.passphrase,
      readyTimeout: timeoutMs,
      // Between rounds the link idles for hours: keep NATs from forgetting it, notice when it died.
      keepaliveInterval: 15_000,
      keepaliveCountMax: 3,
      retries: 0,
      // Checked before any password or key is sent: no key configured, no upload.
      hostVerifier,
    });
    await connecting.catch(async (e: unknown) => {
      await c.end().catch(() => {});
      throw refusedKey ? new Error(refusedKey) : e;
    });
    client = c;
    return c;
  }

  return {
    label: `sftp://${target.user}@${target.host}:${target.port}/${target.dir.replace(/^\//, '')}`,
    async write(file: PublishFile) {
      let c: SftpClient | undefined;
      try {
        c = await connected();
        const path = posix.join(target.dir, file.path);
        const dir = posix.dirname(path);
        if (!made.has(dir)) {
          await c.mkdir(dir, true);
          made.add(dir);
        }
        const temp = posix.join(dir, tempNameOf(posix.basename(path)));
        await c.put(Buffer.from(file.body), temp);
        // OpenSSH's posix-rename replaces the old file in one step; plain SFTP rename will not.
        await c.posixRename(temp, path);
      } catch (e) {
        drop(c);
        throw new Error(scrubbed((e as Error).message, secrets));
      }
    },
    async close() {
      const c = client;
      client = undefined;
      made = new Set();
      await c?.end().catch(() => {});
    },
  };
}
