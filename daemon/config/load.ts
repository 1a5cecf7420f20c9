// Config from file + environment + flags (later wins), validated, with messages that name the key:
// `boards[3].source: unknown scheme "usb"; expected serial:, hid:, tcp:`.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { checkBoardConfig } from '../../firmware-protocol/config.ts';
import type { ProtocolOptions } from '../../firmware-protocol/types.ts';
import { err, ok, type Result } from '../../src/result.ts';
import { applyEnv } from './env.ts';
import { type Config, configSchema } from './schema.ts';
import { type BoardSource, parseSource } from './source.ts';

/** The main options as command-line flags give them. */
export interface ConfigFlags {
  boards?: string[];
  host?: string;
  port?: number;
  dataDir?: string;
  round?: number;
  event?: string;
  variant?: string;
  autoResult?: boolean;
  timeScale?: number;
}

export interface BoardSetup {
  board: number;
  source: BoardSource;
  white?: string;
  black?: string;
  serial?: string;
  protocol: Config['protocol'];
  /** The board description as firmware-protocol reads it (field map, piece codes, …). */
  options: ProtocolOptions;
}

export interface LoadedConfig extends Config {
  /** Boards resolved: numbered, sources parsed, protocol options merged over the global ones. */
  setups: BoardSetup[];
  file?: string;
}

/** `boards[3].source` from zod's path. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key)),
    '',
  );
}

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => {
    const where = formatPath(issue.path);
    return where ? `${where}: ${issue.message}` : issue.message;
  });
}

function readFile(file: string): Result<Record<string, unknown>, string[]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return err([`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`]);
  }
  try {
    const data: unknown = extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
    if (data === null || data === undefined) return ok({});
    if (typeof data !== 'object' || Array.isArray(data))
      return err([`${file}: expected a mapping at the top`]);
    return ok(data as Record<string, unknown>);
  } catch (e) {
    return err([`${file}: ${(e as Error).message.split('\n')[0]}`]);
  }
}

function applyFlags(raw: Record<string, unknown>, flags: ConfigFlags): Record<string, unknown> {
  const out = { ...raw };
  if (flags.boards && flags.boards.length > 0) out.boards = flags.boards.map((source) => ({ source }));
  const simple = ['host', 'port', 'dataDir', 'round', 'event', 'variant', 'autoResult', 'timeScale'] as const;
  for (const key of simple) if (flags[key] !== undefined) out[key] = flags[key];
  return out;
}

export interface LoadOptions {
  file?: string;
  env?: NodeJS.ProcessEnv;
  flags?: ConfigFlags;
}

export function loadConfig(options: LoadOptions = {}): Result<LoadedConfig, string[]> {
  const env = options.env ?? {};
  const file = options.file ?? env.DAMLINK_CONFIG;
  const fromFile = file ? readFile(file) : ok({});
  if (!fromFile.ok) return fromFile;
  const raw = applyFlags(applyEnv(fromFile.value, env), options.flags ?? {});
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) return err(formatIssues(parsed.error.issues));
  const config = parsed.data;
  const setups: BoardSetup[] = [];
  const problems: string[] = [];
  const seen = new Map<number, number>();
  config.boards.forEach((b, i) => {
    const board = b.board ?? i + 1;
    const other = seen.get(board);
    if (other !== undefined) problems.push(`boards[${i}].board: board ${board} is already boards[${other}]`);
    seen.set(board, i);
    const source = parseSource(b.source);
    if (!source.ok) return; // already reported by the schema
    const protocol = { ...config.protocol, ...(b.protocol ?? {}) };
    const { name: _name, baudRate: _baud, ...boardOptions } = protocol;
    const checked = checkBoardConfig(boardOptions);
    if (!checked.ok)
      problems.push(`${b.protocol ? `boards[${i}].protocol` : 'protocol'}: ${checked.error.message}`);
    setups.push({
      board,
      source: source.value,
      white: b.white,
      black: b.black,
      serial: b.serial,
      protocol,
      options: checked.ok ? checked.value : {},
    });
  });
  if (problems.length > 0) return err(problems);
  setups.sort((a, b) => a.board - b.board);
  return ok({ ...config, setups, file });
}
