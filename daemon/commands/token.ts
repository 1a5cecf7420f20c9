// `damlink token [--data-dir D] [--config F]`: the arbiter console's address with the admin token
// the daemon made for itself. `run` prints it only when it makes the token (so it is not copied
// into the system journal at every start); this prints it again for whoever may read the data
// directory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { ADMIN_TOKEN_FILE } from '../server/admin-token.ts';
import { usageError, workFailed } from '../failure.ts';

interface TokenFlags {
  dataDir?: string;
  config?: string;
}

export function registerToken(program: Command): void {
  program
    .command('token')
    .description("print the arbiter console's address with the admin token the daemon made (none configured)")
    .option('-d, --data-dir <dir>', 'where the token is (default: the config, else ./data)')
    .option('-c, --config <file>', "config file (the daemon's host and port, its tokens)")
    .action((flags: TokenFlags) => {
      const config = loadConfig({ file: flags.config, env: process.env, flags: { dataDir: flags.dataDir } });
      if (!config.ok) throw usageError(...config.error);
      const { tokens, dataDir, host, port } = config.value;
      if (tokens.admin || tokens.arbiter)
        throw usageError(
          'the tokens are in the configuration (tokens.arbiter, tokens.admin): hand those out',
        );
      const file = join(dataDir, ADMIN_TOKEN_FILE);
      let token: string;
      try {
        token = readFileSync(file, 'utf8').trim();
      } catch (e) {
        throw workFailed(
          `no admin token in ${file} (${(e as NodeJS.ErrnoException).code}): damlink run makes it at its first start`,
        );
      }
      const shown =
        host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
      console.log(`http://${shown}:${port}/arbiter#token=${token}`);
    });
}
