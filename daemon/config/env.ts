// `DAMLINK_…` environment overrides for every config key: `DAMLINK_PORT=9000`,
// `DAMLINK_DATA_DIR=/var/lib/damlink`, `DAMLINK_TOKENS__ARBITER=…`, `DAMLINK_BOARDS__0__SOURCE=…`.
// `__` separates levels, `_` inside a level maps to camelCase. A key the schema reads as text takes
// the value as written (a token of digits stays those digits); other values are JSON when they parse.
import type { z } from 'zod';
import { configSchema } from './schema.ts';

const PREFIX = 'DAMLINK_';

/** The zod definition fields the walk below reads (zod 4 keeps them in `_zod.def`). */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
}
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Whether the schema reads the value at `path` as text (a string or one of some strings). */
export function isTextKey(path: readonly string[], schema: z.ZodType = configSchema): boolean {
  let node: z.ZodType | undefined = schema;
  let i = 0;
  while (node) {
    const def = defOf(node);
    if (def.innerType)
      node = def.innerType; // optional, default, prefault, nullable…
    else if (def.type === 'pipe') node = defOf(def.in!).type === 'transform' ? def.out : def.in;
    else if (i === path.length) return def.type === 'string' || def.type === 'enum';
    else if (def.type === 'object') node = def.shape?.[path[i++]];
    else if (def.type === 'array' && /^\d+$/.test(path[i])) {
      node = def.element;
      i++;
    } else return false;
  }
  return false;
}

const camel = (segment: string): string =>
  segment.toLowerCase().replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function value(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Tree = Record<string, unknown> | unknown[];

function setPath(target: Tree, path: string[], v: unknown): void {
  let node: Tree = target;
  path.forEach((segment, i) => {
    const key: string | number = Array.isArray(node) ? Number(segment) : segment;
    const last = i === path.length - 1;
    const slot = (node as Record<string | number, unknown>)[key];
    if (last) {
      (node as Record<string | number, unknown>)[key] = v;
      return;
    }
    if (slot === null || typeof slot !== 'object') {
      const next: Tree = /^\d+$/.test(path[i + 1]) ? [] : {};
      (node as Record<string | number, unknown>)[key] = next;
      node = next;
    } else node = slot as Tree;
  });
}

/** One `DAMLINK_…` variable and the config path it sets. */
export interface EnvOverride {
  name: string;
  path: string[];
  text: string;
}

/** The environment's overrides, in the order they apply (by name). */
export function envOverrides(env: NodeJS.ProcessEnv): EnvOverride[] {
  return (
    Object.keys(env)
      .filter((n) => n.startsWith(PREFIX) && n.length > PREFIX.length && env[n] !== undefined)
      .sort()
      .map((name) => ({
        name,
        path: name
          .slice(PREFIX.length)
          .split('__')
          .map((s) => (/^\d+$/.test(s) ? s : camel(s))),
        text: env[name] as string,
      }))
      // DAMLINK_CONFIG names the file itself; it is not a key.
      .filter(({ path }) => !(path.length === 1 && path[0] === 'config'))
  );
}

/** A copy of `raw` with the environment's overrides applied (other keys untouched). */
export function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = structuredClone(raw);
  for (const { path, text } of envOverrides(env)) setPath(out, path, isTextKey(path) ? text : value(text));
  return out;
}
