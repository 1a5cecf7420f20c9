// `DAMLINK_…` environment overrides for every config key: `DAMLINK_PORT=9000`,
// `DAMLINK_DATA_DIR=/var/lib/damlink`, `DAMLINK_TOKENS__ARBITER=…`, `DAMLINK_BOARDS__0__SOURCE=…`.
// `__` separates levels, `_` inside a level maps to camelCase; values are JSON when they parse.

const PREFIX = 'DAMLINK_';

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

/** A copy of `raw` with the environment's overrides applied (other keys untouched). */
export function applyEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out = structuredClone(raw);
  const names = Object.keys(env)
    .filter((n) => n.startsWith(PREFIX) && n.length > PREFIX.length && env[n] !== undefined)
    .sort();
  for (const name of names) {
    const path = name
      .slice(PREFIX.length)
      .split('__')
      .map((s) => (/^\d+$/.test(s) ? s : camel(s)));
    // DAMLINK_CONFIG names the file itself; it is not a key.
    if (path.length === 1 && path[0] === 'config') continue;
    const text = env[name] as string;
    setPath(out, path, value(text));
  }
  return out;
}
