// `damlink config check [FILE]`: validates a config (file, then DAMLINK_… overrides) without starting;
// `damlink config schema`: the config's JSON schema, for editors.
import type { Command } from 'commander';
import { loadConfig } from '../config/index.ts';
import { configJsonSchema } from '../config/json-schema.ts';
import { usageError } from '../failure.ts';

export function registerConfig(program: Command): void {
  const config = program.command('config').description('check the configuration, or print its JSON schema');
  config
    .command('check')
    .description('validate a config file and the DAMLINK_… environment without starting (exit 2 on errors)')
    .argument('[file]', 'config file (default: DAMLINK_CONFIG)')
    .action((file: string | undefined) => {
      const loaded = loadConfig({ file, env: process.env });
      if (!loaded.ok) throw usageError(...loaded.error);
      const c = loaded.value;
      const boards = `${c.setups.length} board${c.setups.length === 1 ? '' : 's'}`;
      console.log(
        `${c.file ?? 'environment'}: ok, round ${c.round}, ${c.variant}, ${boards}, serving ${c.host}:${c.port}`,
      );
    });
  config
    .command('schema')
    .description('print the JSON schema of the config file (editors: # yaml-language-server: $schema=…)')
    .action(() => console.log(JSON.stringify(configJsonSchema(), null, 2)));
}
