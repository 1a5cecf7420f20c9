// Where a config value came from, for error messages: `damlink.yaml:27 boards[3].source`,
// `DAMLINK_PORT`, or the flag that set it. Later sources win, so they are asked first.
import { isMap, type Document, type LineCounter } from 'yaml';
import type { EnvOverride } from './env.ts';

/** A config file as parsed, with what maps its nodes to lines. */
export interface ParsedFile {
  name: string;
  doc: Document;
  lines: LineCounter;
}

export interface Sources {
  file?: ParsedFile;
  env: readonly EnvOverride[];
  /** The config paths each command-line flag set (`--board` → `boards`). */
  flags: readonly { flag: string; path: readonly string[] }[];
}

/** `boards[3].source` from a path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)),
    '',
  );
}

const within = (path: readonly PropertyKey[], prefix: readonly string[]): boolean =>
  prefix.length <= path.length && prefix.every((k, i) => String(path[i]) === k);

/** The line of the deepest node of `path` the file has (the key's line for a mapping entry). */
function lineIn(file: ParsedFile, path: readonly PropertyKey[]): number | undefined {
  for (let n = path.length; n > 0; n--) {
    const parent = file.doc.getIn(path.slice(0, n - 1), true);
    const key = path[n - 1];
    if (isMap(parent)) {
      const pair = parent.items.find(
        (p) => String((p.key as { value?: unknown })?.value ?? p.key) === String(key),
      );
      const range = (pair?.key as { range?: [number, number] } | undefined)?.range;
      if (range) return file.lines.linePos(range[0]).line;
    } else {
      const node = file.doc.getIn(path.slice(0, n), true) as { range?: [number, number] } | undefined;
      if (node?.range) return file.lines.linePos(node.range[0]).line;
    }
  }
  return undefined;
}

/** `origin path: message`, the origin dropped when nobody set the value (a default). */
export function locate(sources: Sources, path: readonly PropertyKey[], message: string): string {
  const where = formatPath(path);
  const label = (origin: string, set: readonly PropertyKey[]) =>
    `${origin}${set.length === path.length ? '' : ` ${where}`}: ${message}`;
  const flag = sources.flags.find((f) => within(path, f.path));
  if (flag) return label(flag.flag, flag.path);
  const env = sources.env.findLast((e) => within(path, e.path));
  if (env) return label(env.name, env.path);
  const line = sources.file && lineIn(sources.file, path);
  if (line) return `${sources.file?.name}:${line} ${where}: ${message}`;
  return where ? `${where}: ${message}` : message;
}
