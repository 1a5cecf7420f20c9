// Config from file + environment + flags (later wins), validated, with messages that say where the
// value came from and name the key: `damlink.yaml:27 boards[3].source: unknown scheme "usb"; expected
// serial:, hid:, tcp:`, `DAMLINK_PORT: …`, `unknown key "prot" (did you mean "port"?)`.
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { profileOptions, replacedByProfile } from '../../firmware-protocol/calibration/index.ts';
import { checkBoardConfig } from '../../firmware-protocol/config.ts';
import type { ProtocolName } from '../../firmware-protocol/protocols.ts';
import type { ProtocolOptions } from '../../firmware-protocol/types.ts';
import { readProfileFile } from '../calibration/profiles.ts';
import { err, ok, type Result } from '../../src/result.ts';
import { applyEnv, envOverrides, envProblems } from './env.ts';
import { knownKeys } from './json-schema.ts';
import { locate, type ParsedFile, type Sources } from './locate.ts';
import { type Config, configSchema } from './schema.ts';
import { type BoardSource, parseSource } from './source.ts';
import { closest } from './suggest.ts';

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
  /** `--tournament`, `--pairing-program`, …: keys of `tournament:` (TOURNAMENT_FLAGS). */
  tournament?: string;
  pairingProgram?: string;
  tournamentName?: string;
  rounds?: number;
  groups?: string[];
  firstColour?: string;
}

export interface BoardSetup {
  board: number;
  source: BoardSource;
  white?: string;
  black?: string;
  /** The players' FMJD ids, from the tournament's pairings. */
  whiteFmjdId?: string;
  blackFmjdId?: string;
  serial?: string;
  protocol: Config['protocol'];
  /** The board description as firmware-protocol reads it (field map, piece codes, …). */
  options: ProtocolOptions;
  /** The profile file `options` were calibrated from (`boards[].profile`). */
  profile?: string;
}

export interface LoadedConfig extends Config {
  /** Boards resolved: numbered, sources parsed, protocol options merged over the global ones. */
  setups: BoardSetup[];
  file?: string;
  /** Things that work but are probably not meant (a profile and a field map for one board). */
  warnings: string[];
}

/** One problem with the config, at a path of it. */
interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

/** Zod's issues as ours: an unknown key is an issue at the key, with the closest known key. */
function issuesOf(zodIssues: readonly z.core.$ZodIssue[]): Issue[] {
  return zodIssues.flatMap((issue) => {
    if (issue.code !== 'unrecognized_keys') return [{ path: issue.path, message: issue.message }];
    const known = knownKeys(issue.path);
    return issue.keys.map((key) => {
      const near = closest(key, known);
      return {
        path: [...issue.path, key],
        message: `unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ''}`,
      };
    });
  });
}

/** A YAML or JSON config file (JSON is YAML), with its nodes' lines for the messages. */
function readFile(file: string): Result<{ data: Record<string, unknown>; parsed: ParsedFile }, string[]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    return err([`${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`]);
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const [first] = doc.errors;
  if (first) {
    const at = lines.linePos(first.pos[0]);
    return err([`${file}:${at.line}:${at.col} ${first.message.split('\n')[0]}`]);
  }
  let data: unknown;
  try {
    // yaml stops a document whose aliases would expand without bound (a "billion laughs" file).
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    return err([`${file}: ${(e as Error).message}`]);
  }
  const parsed = { name: file, doc, lines };
  if (data === null || data === undefined) return ok({ data: {}, parsed });
  if (typeof data !== 'object' || Array.isArray(data)) return err([`${file}: expected a mapping at the top`]);
  return ok({ data: data as Record<string, unknown>, parsed });
}

/** The flags that set one top-level key each, by that key. */
const FLAG_NAMES = {
  host: '--host',
  port: '--port',
  dataDir: '--data-dir',
  round: '--round',
  event: '--event',
  variant: '--variant',
  autoResult: '--auto-result',
  timeScale: '--time-scale',
} as const;
const SIMPLE_FLAGS = Object.keys(FLAG_NAMES) as (keyof typeof FLAG_NAMES)[];
/** The flags that set a key of `tournament:`, by flag key. */
const TOURNAMENT_FLAGS = {
  tournament: { flag: '--tournament', key: 'file' },
  pairingProgram: { flag: '--pairing-program', key: 'pairingProgram' },
  tournamentName: { flag: '--tournament-name', key: 'name' },
  rounds: { flag: '--rounds', key: 'rounds' },
  groups: { flag: '--groups', key: 'groups' },
  firstColour: { flag: '--first-colour', key: 'firstColour' },
} as const;
const NESTED_FLAGS = Object.keys(TOURNAMENT_FLAGS) as (keyof typeof TOURNAMENT_FLAGS)[];

/** The config paths the given flags set, for the messages. */
function flagSources(flags: ConfigFlags): Sources['flags'] {
  const set = SIMPLE_FLAGS.filter((key) => flags[key] !== undefined).map((key) => ({
    flag: FLAG_NAMES[key],
    path: [key],
  }));
  const nested = NESTED_FLAGS.filter((key) => flags[key] !== undefined).map((key) => ({
    flag: TOURNAMENT_FLAGS[key].flag,
    path: ['tournament', TOURNAMENT_FLAGS[key].key],
  }));
  const all = [...set, ...nested];
  return flags.boards?.length ? [{ flag: '--board', path: ['boards'] }, ...all] : all;
}

function applyFlags(raw: Record<string, unknown>, flags: ConfigFlags): Record<string, unknown> {
  const out = { ...raw };
  if (flags.boards && flags.boards.length > 0) out.boards = flags.boards.map((source) => ({ source }));
  for (const key of SIMPLE_FLAGS) if (flags[key] !== undefined) out[key] = flags[key];
  for (const key of NESTED_FLAGS)
    if (flags[key] !== undefined) {
      const block = typeof out.tournament === 'object' && out.tournament !== null ? out.tournament : {};
      out.tournament = { ...block, [TOURNAMENT_FLAGS[key].key]: flags[key] };
    }
  return out;
}

export interface LoadOptions {
  file?: string;
  env?: NodeJS.ProcessEnv;
  flags?: ConfigFlags;
  /** Values taken only where the file, the environment and the flags say nothing (a rehearsal's). */
  defaults?: ConfigFlags;
}

/** `raw` with `defaults` where it has no value of its own. */
function applyDefaults(raw: Record<string, unknown>, defaults: ConfigFlags): Record<string, unknown> {
  const out = { ...raw };
  for (const key of SIMPLE_FLAGS)
    if (defaults[key] !== undefined && out[key] === undefined) out[key] = defaults[key];
  return out;
}

export function loadConfig(options: LoadOptions = {}): Result<LoadedConfig, string[]> {
  const env = options.env ?? {};
  const file = options.file ?? env.DAMLINK_CONFIG;
  const fromFile = file ? readFile(file) : ok(undefined);
  if (!fromFile.ok) return fromFile;
  const flags = options.flags ?? {};
  const sources: Sources = {
    file: fromFile.value?.parsed,
    env: envOverrides(env),
    flags: flagSources(flags),
  };
  const located = (issues: readonly Issue[]) => issues.map((i) => locate(sources, i.path, i.message));
  const unknown = envProblems(env);
  if (unknown.length > 0) return err(unknown);
  const raw = applyFlags(
    applyDefaults(applyEnv(fromFile.value?.data ?? {}, env), options.defaults ?? {}),
    flags,
  );
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) return err(located(issuesOf(parsed.error.issues)));
  const config = parsed.data;
  const setups: BoardSetup[] = [];
  const problems: Issue[] = [];
  const warnings: Issue[] = [];
  const seen = new Map<number, number>();
  config.boards.forEach((b, i) => {
    const board = b.board ?? i + 1;
    const other = seen.get(board);
    if (other !== undefined)
      problems.push({ path: ['boards', i, 'board'], message: `board ${board} is already boards[${other}]` });
    seen.set(board, i);
    const source = parseSource(b.source);
    if (!source.ok) return; // already reported by the schema
    let protocol = { ...config.protocol, ...(b.protocol ?? {}) };
    const { name: _name, baudRate: _baud, ...boardOptions } = protocol;
    const checked = checkBoardConfig(boardOptions);
    if (!checked.ok)
      problems.push({
        path: b.protocol ? ['boards', i, 'protocol'] : ['protocol'],
        message: checked.error.message,
      });
    let options = checked.ok ? checked.value : {};
    if (b.profile) {
      const applied = applyProfile(b.profile, protocol.name, options, b.serial);
      const path = ['boards', i, 'profile'];
      if (!applied.ok) problems.push({ path, message: applied.error });
      else {
        ({ options } = applied.value);
        protocol = { ...protocol, name: applied.value.protocol };
        warnings.push(...applied.value.warnings.map((message) => ({ path, message })));
      }
    }
    setups.push({
      board,
      source: source.value,
      white: b.white,
      black: b.black,
      serial: b.serial,
      protocol,
      options,
      ...(b.profile ? { profile: b.profile } : {}),
    });
  });
  if (problems.length > 0) return err(located(problems));
  setups.sort((a, b) => a.board - b.board);
  return ok({ ...config, setups, file, warnings: located(warnings) });
}

/** A profile file laid over the board's protocol options; warnings for what it overrides. */
function applyProfile(
  file: string,
  name: string,
  options: ProtocolOptions,
  serial: string | undefined,
): Result<{ options: ProtocolOptions; protocol: ProtocolName; warnings: string[] }, string> {
  const read = readProfileFile(file);
  if (!read.ok) return read;
  const profile = read.value;
  if (name !== 'auto' && name !== profile.protocol)
    return err(`${file} is the profile of a ${profile.protocol} board, but protocol says ${name}`);
  const warnings: string[] = [];
  const overridden = replacedByProfile(options);
  if (overridden.length > 0) warnings.push(`the profile ${file} wins over protocol ${overridden.join(', ')}`);
  if (serial !== undefined && serial !== profile.serial)
    warnings.push(`the profile ${file} is of board ${profile.serial}, not ${serial}`);
  return ok({ options: profileOptions(profile, options), protocol: profile.protocol, warnings });
}
