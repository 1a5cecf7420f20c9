// An FTP or FTPS server as a publish target: one control connection kept open, opened again after
// any failure; files stored under a temp name and renamed over the old one (RNFR/RNTO).
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import type { PublishTarget } from '../config/index.ts';
import { type PublishFile, scrubbed, tempNameOf, type Uploader } from './types.ts';

type FtpTarget = Extract<PublishTarget, { kind: 'ftp' }>;

export function ftpUploader(target: FtpTarget, timeoutMs: number): Uploader {
  let client: Client | undefined;
  /** basic-ftp works relative to the current folder: known, it saves a CWD per file. */
  let cwd: string | undefined;

  async function connected(): Promise<Client> {
    if (client && !client.closed) return client;
    const c = new Client(timeoutMs);
    try {
      const ca = target.ca ? await readFile(target.ca) : undefined;
      await c.access({
        host: target.host,
        port: target.port,
        user: target.user,
        password: target.password,
        secure: target.secure,
        secureOptions: ca ? { ca } : undefined,
      });
    } catch (e) {
      c.close();
      throw e;
    }
    client = c;
    cwd = undefined;
    return c;
  }

  const scheme = target.secure ? 'ftps' : 'ftp';
  return {
    label: `${scheme}://${target.user}@${target.host}:${target.port}/${target.dir.replace(/^\//, '')}`,
    async write(file: PublishFile) {
      try {
        const c = await connected();
        const path = posix.join(target.dir, file.path);
        const dir = posix.dirname(path);
        if (cwd !== dir) {
          cwd = undefined;
          await c.ensureDir(dir);
          cwd = dir;
        }
        const name = posix.basename(path);
        const temp = tempNameOf(name);
        await c.uploadFrom(Readable.from([Buffer.from(file.body)]), temp);
        await c.rename(temp, name);
      } catch (e) {
        client?.close();
        client = undefined;
        throw new Error(scrubbed((e as Error).message, [target.password]));
      }
    },
    async close() {
      client?.close();
      client = undefined;
    },
  };
}
