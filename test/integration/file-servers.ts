// Real file servers on loopback for the publish tests: OpenSSH's sshd (internal-sftp, a throwaway
// host key and user key) and vsftpd (anonymous uploads into a temp root), each on a free port,
// stoppable and restartable on the same port to play a server that goes away and comes back.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { PublishTarget } from '../../daemon/config/index.ts';
import { tempDir } from './helpers.ts';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Every process below `pid` (sessions forked by a listener), read from /proc. */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

async function listening(port: number, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface FileServer {
  port: number;
  /** The folder on this machine where uploaded files land. */
  root: string;
  /** Stops the server and every session it forked: clients lose their connection. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

function restartable(port: number, root: string, launch: () => ChildProcess): FileServer {
  let proc: ChildProcess | undefined;
  let log = '';
  return {
    port,
    root,
    async start() {
      log = '';
      const p = launch();
      proc = p;
      p.stdout?.on('data', (d: Buffer) => (log += d.toString()));
      p.stderr?.on('data', (d: Buffer) => (log += d.toString()));
      await Promise.race([
        listening(port),
        new Promise((_, reject) =>
          p.once('exit', (code) => reject(new Error(`server exited ${code}: ${log}`))),
        ),
      ]);
    },
    async stop() {
      const p = proc;
      proc = undefined;
      if (!p?.pid || p.exitCode !== null) return;
      const exited = new Promise((r) => p.once('exit', r));
      for (const pid of [...descendants(p.pid).reverse(), p.pid]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await exited;
    },
  };
}

/** A server with the publish targets that reach it. */
export interface PublishServer extends FileServer {
  /** The target that writes into `root`. */
  target(): PublishTarget;
  /** A target the server refuses at login (a wrong key, an unknown user), with `secret` as password. */
  refused(secret: string): PublishTarget;
}

export interface SshServer extends PublishServer {
  user: string;
  /** The host key as `ssh-keygen -l` prints it (`SHA256:…`). */
  fingerprint: string;
}

/** sshd in the foreground with `Subsystem sftp internal-sftp`; the user is whoever runs the tests. */
export async function startSshd(): Promise<SshServer> {
  const dir = tempDir('sshd');
  const root = join(dir, 'www');
  mkdirSync(root);
  const keygen = (name: string) =>
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, name)]);
  for (const name of ['host_key', 'user_key', 'wrong_key']) keygen(name);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'user_key.pub')));
  const fingerprint = execFileSync('ssh-keygen', ['-l', '-f', join(dir, 'host_key.pub')])
    .toString()
    .split(' ')[1];
  const port = await freePort();
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      'ListenAddress 127.0.0.1',
      `Port ${port}`,
      `HostKey ${join(dir, 'host_key')}`,
      'PidFile none',
      'UsePAM no',
      'StrictModes no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  // sshd insists on its privilege-separation folder even in the foreground.
  mkdirSync('/run/sshd', { recursive: true });
  const server = restartable(port, root, () =>
    spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  await server.start();
  const user = userInfo().username;
  const target = (key: string) =>
    ({ kind: 'sftp', host: '127.0.0.1', port, user, privateKey: join(dir, key), dir: root }) as const;
  return {
    ...server,
    user,
    fingerprint,
    target: () => ({ ...target('user_key'), hostFingerprint: fingerprint }),
    refused: (secret) => ({ ...target('wrong_key'), password: secret }),
  };
}

export interface FtpServer extends PublishServer {
  /** With TLS: the server's self-signed certificate (PEM), for the client to trust. */
  ca?: string;
}

/**
 * vsftpd in the foreground: anonymous only, uploads into `<root>`, passive mode on loopback; with
 * `tls`, explicit FTPS required for login and data, on a throwaway self-signed certificate.
 */
export async function startVsftpd(options: { tls?: boolean } = {}): Promise<FtpServer> {
  const dir = tempDir('vsftpd');
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  if (options.tls) {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        key,
        '-out',
        cert,
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
  }
  const tls = options.tls
    ? [
        'ssl_enable=YES',
        'allow_anon_ssl=YES',
        'force_anon_logins_ssl=YES',
        'force_anon_data_ssl=YES',
        'require_ssl_reuse=NO',
        `rsa_cert_file=${cert}`,
        `rsa_private_key_file=${key}`,
      ]
    : [];
  // vsftpd refuses an anonymous root the anonymous user may write: uploads go to pub/ inside it.
  const anonRoot = join(dir, 'root');
  const root = join(anonRoot, 'pub');
  mkdirSync(root, { recursive: true });
  const ftpUser = execFileSync('id', ['-u', 'ftp']).toString().trim();
  chownSync(root, Number(ftpUser), Number(ftpUser));
  const port = await freePort();
  const pasv = 30_000 + Math.floor(Math.random() * 300) * 100;
  const config = join(dir, 'vsftpd.conf');
  writeFileSync(
    config,
    [
      'listen=YES',
      'listen_address=127.0.0.1',
      `listen_port=${port}`,
      'background=NO',
      'anonymous_enable=YES',
      'local_enable=NO',
      'write_enable=YES',
      'anon_upload_enable=YES',
      'anon_mkdir_write_enable=YES',
      'anon_other_write_enable=YES',
      'anon_umask=022',
      `anon_root=${anonRoot}`,
      'no_anon_password=YES',
      'pasv_enable=YES',
      'pasv_address=127.0.0.1',
      `pasv_min_port=${pasv}`,
      `pasv_max_port=${pasv + 99}`,
      'seccomp_sandbox=NO',
      'xferlog_enable=NO',
      ...tls,
      '',
    ].join('\n'),
  );
  const server = restartable(port, root, () =>
    spawn('/usr/sbin/vsftpd', [config], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  await server.start();
  const ca = options.tls ? cert : undefined;
  const target = (user: string, password: string): PublishTarget => ({
    kind: 'ftp',
    host: '127.0.0.1',
    port,
    user,
    password,
    secure: options.tls === true,
    ca,
    dir: '/pub',
  });
  return {
    ...server,
    ca,
    target: () => target('anonymous', ''),
    refused: (secret) => target('organiser', secret),
  };
}
