// The pretest's decision: nothing to do, install with apt-get (root), or stop with the one command.
import { describe, expect, it } from 'vitest';
import { isInstalled, plan } from './check-system.ts';
import { SYSTEM_PACKAGES } from './system-packages.ts';

describe('pretest system check', () => {
  it('does nothing when every package is installed', () => {
    expect(plan([], { root: false, apt: false })).toEqual({ kind: 'ready' });
  });
  it('installs the missing packages with apt-get when it runs as root', () => {
    expect(plan(['socat', 'mosquitto'], { root: true, apt: true })).toEqual({
      kind: 'install',
      packages: ['socat', 'mosquitto'],
      command: ['install', '-y', 'socat', 'mosquitto'],
    });
  });
  it('stops with one line naming the command when it is not root (or has no apt-get)', () => {
    const line =
      'the tests need socat, mosquitto; run: sudo apt-get update && sudo apt-get install -y socat mosquitto';
    for (const host of [
      { root: false, apt: true },
      { root: true, apt: false },
    ]) {
      const p = plan(['socat', 'mosquitto'], host);
      expect(p).toEqual({ kind: 'stop', message: line });
    }
  });
  it('finds a program on PATH, and misses a package that is not there', () => {
    expect(isInstalled({ name: 'nodejs', binary: 'node', why: 'test' })).toBe(true);
    expect(isInstalled({ name: 'damlink-no-such-package', why: 'test' })).toBe(false);
  });
  it('lists each package once, with a reason', () => {
    const names = SYSTEM_PACKAGES.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['socat', 'mosquitto', 'chromium', 'libusb-1.0-0']));
    for (const p of SYSTEM_PACKAGES) expect(p.why.length).toBeGreaterThan(0);
  });
});
