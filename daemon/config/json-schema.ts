// The config's JSON schema, from the zod schema itself, so editors complete and check damlink.yaml
// (`damlink config schema`; docs/ops/damlink.schema.json is kept equal to it by a test).
import { z } from 'zod';
import { configSchema } from './schema.ts';

type JsonSchema = { properties?: Record<string, JsonSchema>; items?: JsonSchema; [key: string]: unknown };

let cached: JsonSchema | undefined;

/** What a config file may hold, as its author writes it (defaults make keys optional). */
export function configJsonSchema(): JsonSchema {
  cached ??= {
    ...z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'damlink configuration',
  } as JsonSchema;
  return cached;
}

/** The keys a mapping at `path` may hold (none when it is not a mapping of known keys). */
export function knownKeys(path: readonly PropertyKey[]): string[] {
  let node: JsonSchema | undefined = configJsonSchema();
  for (const key of path) node = typeof key === 'number' ? node?.items : node?.properties?.[String(key)];
  return Object.keys(node?.properties ?? {});
}
