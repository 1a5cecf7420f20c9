// A local folder as a publish target (served by a web server, or synced by another tool).
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tempNameOf, type PublishFile, type Uploader } from './types.ts';

export function directoryUploader(root: string): Uploader {
  return {
    label: `directory ${root}`,
    async write(file: PublishFile) {
      const target = join(root, file.path);
      const temp = join(dirname(target), tempNameOf(basename(target)));
      await mkdir(dirname(target), { recursive: true });
      await writeFile(temp, file.body);
      await rename(temp, target);
    },
    async close() {},
  };
}
