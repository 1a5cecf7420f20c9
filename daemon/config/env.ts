// `DAMLINK_…` environment overrides for every config key: `DAMLINK_PORT=9000`,
// `DAMLINK_DATA_DIR=/var/lib/damlink`, `DAMLINK_TOKENS__ARBITER=…`, `DAMLINK_BOARDS__0__SOURCE=…`.
// `__` separates levels, `_` inside a level maps to camelCase. A key the schema reads as text takes
// the value as written (a token of digits stays those digits); other values are JSON when they parse.
import type { z } from 'zod';
import { configSchema } from './schema.ts';
import { closest } from './suggest.ts';

const PREFIX = 'DAMLINK_';

/** The zod definition fields the walk below reads (zod 4 keeps them in `_zod.def`). */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  catchall?: z.ZodType;
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

/** The highest list index a variable may name (`DAMLINK_BOARDS__999__SOURCE`). */
export const MAX_ENV_INDEX = 999;

/**
 * Why `path` names no key of the schema, or undefined when it does — checked before a variable is
 * applied, so that no variable can reach past the config (`DAMLINK_CONSTRUCTOR__PROTOTYPE__X`) or
 * make a list of a million boards.
 */
export function envPathProblem(
  path: readonly string[],
  schema: z.ZodType = configSchema,
): string | undefined {
  let node: z.ZodType | undefined = schema;
  let i = 0;
  while (node) {
    const def = defOf(node);
    if (def.innerType) node = def.innerType;
    else if (def.type === 'pipe') node = defOf(def.in!).type === 'transform' ? def.out : def.in;
    else if (i === path.length) return undefined;
    else if (def.type === 'object') {
      const key = path[i++];
      const shape = def.shape ?? {};
      if (Object.hasOwn(shape, key)) node = shape[key];
      // A loose object takes keys of its own (a board's protocol options); zod judges their values.
      else if (
        def.catchall &&
        defOf(def.catchall).type !== 'never' &&
        !/^(__proto__|constructor|prototype)$/.test(key)
      )
        return undefined;
      else {
        const near = closest(key, Object.keys(shape));
        return `unknown key "${path.slice(0, i).join('.')}"${near ? ` (did you mean "${[...path.slice(0, i - 1), near].join('.')}"?)` : ''}`;
      }
    } else if (def.type === 'array') {
      const index = path[i++];
      if (!/^\d+$/.test(index) || Number(index) > MAX_ENV_INDEX)
        return `"${path.slice(0, i).join('.')}": a list index is 0–${MAX_ENV_INDEX}`;
      node = def.element;
    } else if (def.type === 'union')
      return undefined; // which of its forms the value takes is zod's to say
    else return `"${path.slice(0, i).join('.')}" is a value, not a section`;
  }
  return undefined;
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

/** Each variable that names no config key, with why. */
export function envProblems(env: NodeJS.ProcessEnv): string[] {
  return envOverrides(env).flatMap(({ name, path }) => {
    const problem = envPathProblem(path);
    return problem ? [`${name}: ${problem}`] : [];
  });
}

/** A copy of `raw` with the environment's overrides applied (other keys untouched); see envProblems first. */
export function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = structuredClone(raw);
  for (const { path, text } of envOverrides(env)) {
    if (envPathProblem(path) !== undefined) continue;
    setPath(out, path, isTextKey(path) ? text : value(text));
  }
  return out;
}
