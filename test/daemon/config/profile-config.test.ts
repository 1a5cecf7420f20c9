// Board profiles in the config (`boards[].profile`) and in the data directory: a profile wins over
// the protocol's field map (with a warning), sets the protocol, and is refused when it is not one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProfiles, profilePath, saveProfile } from '../../../daemon/calibration/profiles.ts';
import { loadConfig } from '../../../daemon/config/index.ts';
import { type BoardProfile, PROFILE_FORMAT } from '../../../firmware-protocol/index.ts';
import { rotatedFields50 } from '../../firmware-protocol/fixtures/calibration-boards.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-profile-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const PROFILE: BoardProfile = {
  format: PROFILE_FORMAT,
  serial: '12345',
  protocol: 'dgt',
  size: 10,
  fields: 50,
  fieldMap: rotatedFields50(),
  lightFields: [],
  senses: 'pieces',
  pieces: { w: 4, b: 1, W: 10, B: 7 },
  kings: 'crown',
};

describe('boards[].profile', () => {
  const profile = file('board.json', JSON.stringify(PROFILE));

  it('sets the field map, piece codes and protocol of the board', () => {
    const cfg = file('a.yaml', `boards:\n  - source: /dev/ttyUSB0\n    profile: ${profile}\n`);
    const loaded = loadConfig({ file: cfg });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const [setup] = loaded.value.setups;
    expect(setup.protocol.name).toBe('dgt');
    expect(setup.options).toMatchObject({
      fieldMap: { fields50: rotatedFields50() },
      pieceCodes: PROFILE.pieces,
      scan: '50',
    });
    expect(setup.profile).toBe(profile);
    expect(loaded.value.warnings).toEqual([]);
  });

  it('wins over the protocol field map, with a warning naming both', () => {
    const cfg = file(
      'b.yaml',
      `protocol:\n  name: dgt\n  pieceCodes: { w: 1, b: 4, W: 7, B: 10 }\nboards:\n  - source: /dev/ttyUSB0\n    profile: ${profile}\n`,
    );
    const loaded = loadConfig({ file: cfg });
    if (!loaded.ok) throw new Error(loaded.error.join('\n'));
    expect(loaded.value.setups[0].options.pieceCodes).toEqual(PROFILE.pieces);
    expect(loaded.value.warnings).toHaveLength(1);
    expect(loaded.value.warnings[0]).toMatch(
      /b\.yaml:\d+ boards\[0\]\.profile: the profile .* wins over protocol pieceCodes/,
    );
  });

  it('a profile of another protocol, or a broken file: refused with the place', () => {
    const line = loadConfig({
      file: file(
        'c.yaml',
        `boards:\n  - source: /dev/ttyUSB0\n    protocol: { name: line }\n    profile: ${profile}\n`,
      ),
    });
    expect(line).toMatchObject({ ok: false });
    expect(!line.ok && line.error[0]).toMatch(/boards\[0\]\.profile: .* a dgt board, but protocol says line/);
    const broken = loadConfig({
      file: file(
        'd.yaml',
        `boards:\n  - source: /dev/ttyUSB0\n    profile: ${file('broken.json', '{"format": 1}')}\n`,
      ),
    });
    expect(!broken.ok && broken.error[0]).toMatch(/broken\.json: format must be/);
  });
});

describe('profiles in the data directory', () => {
  it('are found by serial; a file that is not a profile is named and skipped', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'damlink-profiles-'));
    saveProfile(profilePath(dataDir, PROFILE.serial), PROFILE);
    saveProfile(profilePath(dataDir, 'a/b'), { ...PROFILE, serial: 'a/b' });
    writeFileSync(join(dataDir, 'profiles', 'junk.json'), 'not json');
    const { profiles, problems } = loadProfiles(dataDir);
    expect([...profiles.keys()].sort()).toEqual(['12345', 'a/b']);
    expect(profiles.get('12345')).toEqual(PROFILE);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/junk\.json: not JSON/);
  });
});
