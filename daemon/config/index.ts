export type { BoardSetup, ConfigFlags, LoadedConfig, LoadOptions } from './load.ts';
export { loadConfig } from './load.ts';
export type {
  BoardConfig,
  Config,
  ProtocolConfig,
  PublishConfig,
  PublishTarget,
  TournamentConfig,
} from './schema.ts';
export { configSchema, DEFAULT_SEARCH_SHARE } from './schema.ts';
export type { BoardSource } from './source.ts';
export { parseSource } from './source.ts';
