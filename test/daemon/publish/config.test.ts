import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-publish-config-'));
const load = (yaml: string) => {
  const path = join(dir, `c${Math.random()}.yaml`);
  writeFileSync(path, yaml);
  return loadConfig({ file: path });
};

describe('publish: in the config', () => {
  it('reads a folder, an SFTP and an FTPS target with defaults for ports and timing', () => {
    const r = load(
      [
        'publish:',
        '  targets:',
        '    - { kind: directory, path: /var/www/damlink }',
        '    - { kind: sftp, host: example.org, user: damlink, privateKey: /etc/damlink/id_ed25519, knownHosts: /etc/damlink/known_hosts, dir: /srv/www }',
        '    - { kind: ftp, host: ftp.example.org, user: club, password: 1234, secure: true }',
      ].join('\n'),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.publish).toEqual({
      targets: [
        { kind: 'directory', path: '/var/www/damlink' },
        {
          kind: 'sftp',
          host: 'example.org',
          port: 22,
          user: 'damlink',
          privateKey: '/etc/damlink/id_ed25519',
          knownHosts: '/etc/damlink/known_hosts',
          dir: '/srv/www',
        },
        {
          kind: 'ftp',
          host: 'ftp.example.org',
          port: 21,
          user: 'club',
          password: '1234',
          secure: true,
          dir: '/',
        },
      ],
      coalesceMs: 250,
      retry: { firstMs: 1000, maxMs: 30_000 },
      timeoutMs: 10_000,
    });
  });

  it('no publish: key, no publishing', () => {
    const r = load('round: 2\n');
    expect(r.ok && r.value.publish).toBe(undefined);
  });

  it('refuses an SFTP target without a key or password, an unknown kind, a bad fingerprint', () => {
    const r = load(
      [
        'publish:',
        '  targets:',
        '    - { kind: sftp, host: h, user: u }',
        '    - { kind: s4, path: x }',
        '    - { kind: sftp, host: h, user: u, password: p, hostFingerprint: "MD5:ab" }',
      ].join('\n'),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const text = r.error.join('\n');
    expect(text).toContain('publish.targets[0]: give privateKey (a key file) or password');
    expect(text).toMatch(/publish\.targets\[1\]\.kind/);
    expect(text).toContain('publish.targets[2].hostFingerprint: expected SHA256:');
  });

  it("SFTP needs the server's key (a fingerprint or a known_hosts file) unless acceptAnyHostKey is spelled out", () => {
    const r = load('publish:\n  targets:\n    - { kind: sftp, host: h, user: u, password: p }\n');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.join('\n')).toContain('publish.targets[0]: give hostFingerprint');
    const spelled = load(
      'publish:\n  targets:\n    - { kind: sftp, host: h, user: u, password: p, acceptAnyHostKey: true }\n',
    );
    expect(spelled.ok).toBe(true);
    const notFalse = load(
      'publish:\n  targets:\n    - { kind: sftp, host: h, user: u, password: p, acceptAnyHostKey: false }\n',
    );
    expect(notFalse.ok).toBe(false);
  });

  it('FTP is FTPS unless plain FTP is named (secure: false)', () => {
    const r = load(
      'publish:\n  targets:\n    - { kind: ftp, host: ftp.example.org }\n    - { kind: ftp, host: h, secure: false }\n',
    );
    expect(r.ok && r.value.publish?.targets.map((t) => t.kind === 'ftp' && t.secure)).toEqual([true, false]);
  });
});
