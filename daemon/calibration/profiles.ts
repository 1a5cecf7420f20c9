// Board profiles on disk: one JSON file per board in `<dataDir>/profiles/`, named by serial number,
// or a file named in the config (`boards[].profile`).
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type BoardProfile, parseBoardProfile } from '../../firmware-protocol/calibration/index.ts';
import { err, ok, type Result } from '../../src/result.ts';

export const profileDir = (dataDir: string): string => join(dataDir, 'profiles');

/** A serial as a file name: anything outside `A–Z a–z 0–9 . _ -` becomes `_`. */
export const profilePath = (dataDir: string, serial: string): string =>
  join(profileDir(dataDir), `${serial.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);

export function readProfileFile(path: string): Result<BoardProfile, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return err(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const parsed = parseBoardProfile(text);
  return parsed.ok ? ok(parsed.value) : err(`${path}: ${parsed.error.message}`);
}

/** Writes through a temporary file, so a crash leaves the old profile or the new, never half. */
export function saveProfile(path: string, profile: BoardProfile): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.tmp`;
  // Lists of numbers on one line each: a field map stays readable.
  const text = JSON.stringify(profile, null, 2).replace(
    /\[\s+([\d,\s]+?)\s+\]/g,
    (_, body: string) => `[${body.split(/,\s*/).join(', ')}]`,
  );
  writeFileSync(temp, `${text}\n`);
  renameSync(temp, path);
}

/** Every profile in the data directory by serial, and a line for each file that could not be used. */
export function loadProfiles(dataDir: string): { profiles: Map<string, BoardProfile>; problems: string[] } {
  const profiles = new Map<string, BoardProfile>();
  const problems: string[] = [];
  let names: string[];
  try {
    names = readdirSync(profileDir(dataDir)).filter((n) => n.endsWith('.json'));
  } catch {
    return { profiles, problems };
  }
  for (const name of names.sort()) {
    const read = readProfileFile(join(profileDir(dataDir), name));
    if (read.ok) profiles.set(read.value.serial, read.value);
    else problems.push(read.error);
  }
  return { profiles, problems };
}

/**
 * The data directory's profiles while the daemon runs: read at start, and a board calibrated from
 * the console saved and known at once (the connections look it up by serial in `bySerial`).
 */
export interface ProfileStore {
  readonly bySerial: ReadonlyMap<string, BoardProfile>;
  /** Writes the board's profile where `damlink run` looks for it; the file written. Throws on I/O. */
  save(profile: BoardProfile): string;
}

export function openProfileStore(dataDir: string): { store: ProfileStore; problems: string[] } {
  const { profiles, problems } = loadProfiles(dataDir);
  const store: ProfileStore = {
    bySerial: profiles,
    save(profile) {
      // Absolute, as `damlink calibrate` says it: the arbiter reads it far from the daemon's cwd.
      const file = resolve(profilePath(dataDir, profile.serial));
      saveProfile(file, profile);
      profiles.set(profile.serial, profile);
      return file;
    },
  };
  return { store, problems };
}
