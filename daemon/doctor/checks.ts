// `damlink doctor`'s checks of the machine: serial device access (dialout, the udev rule), stable
// /dev/serial/by-id names, HID access, the data directory, the port. Each gives a finding with a
// line of advice when something is wrong.
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { byIdLinks } from '../transport/ports.ts';

export interface Finding {
  check: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  /** What to do about it (warn and fail only). */
  advice?: string;
}

export const ok = (check: string, detail: string): Finding => ({ check, status: 'ok', detail });
export const warn = (check: string, detail: string, advice: string): Finding => ({
  check,
  status: 'warn',
  detail,
  advice,
});
export const fail = (check: string, detail: string, advice: string): Finding => ({
  check,
  status: 'fail',
  detail,
  advice,
});

/** Where the machine keeps what the checks read (tests point them elsewhere). */
export interface MachinePaths {
  groupFile: string;
  udevRules: string[];
  byIdDir: string;
  devDir: string;
}

export const MACHINE: MachinePaths = {
  groupFile: '/etc/group',
  udevRules: ['/etc/udev/rules.d/99-damlink.rules', '/lib/udev/rules.d/99-damlink.rules'],
  byIdDir: '/dev/serial/by-id',
  devDir: '/dev',
};

const errorCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? String(e);

/** Whether this user may read and write `path`; the reason when not. */
function accessProblem(path: string): string | undefined {
  try {
    accessSync(path, constants.R_OK | constants.W_OK);
    return undefined;
  } catch (e) {
    return errorCode(e);
  }
}

/** Members of the `dialout` group (by name) and whether the current user is one. */
function inGroup(group: string, groupFile: string): boolean | undefined {
  let text: string;
  try {
    text = readFileSync(groupFile, 'utf8');
  } catch {
    return undefined;
  }
  const line = text.split('\n').find((l) => l.startsWith(`${group}:`));
  if (!line) return undefined;
  const [, , gid, members = ''] = line.split(':');
  const me = userInfo();
  return members.split(',').includes(me.username) || process.getgroups?.().includes(Number(gid)) === true;
}

/** A serial board's device: there, readable and writable, and named so that it survives replugging. */
export function checkSerialDevice(path: string, machine: MachinePaths = MACHINE): Finding[] {
  const check = `serial ${path}`;
  if (!existsSync(path)) {
    const known = [...byIdLinks(machine.byIdDir).values()];
    return [
      fail(
        check,
        'no such device',
        known.length
          ? `plug the board in, or use one of ${known.join(', ')}`
          : 'plug the board in and check its cable; `damlink ports` lists the devices there are',
      ),
    ];
  }
  const findings: Finding[] = [];
  const denied = accessProblem(path);
  if (denied) {
    const member = inGroup('dialout', machine.groupFile);
    findings.push(
      fail(
        check,
        `cannot open it for reading and writing (${denied})`,
        member === false
          ? `add yourself to the dialout group: sudo usermod -aG dialout ${userInfo().username}, then log in again`
          : 'install the udev rule: sudo cp docs/ops/99-damlink.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger',
      ),
    );
  } else findings.push(ok(check, 'readable and writable'));
  if (path.startsWith(`${machine.devDir}/tty`)) {
    const byId = byIdLinks(machine.byIdDir).get(path);
    findings.push(
      warn(
        check,
        'a tty number, which can change when boards are replugged',
        byId
          ? `configure it as serial:${byId}`
          : 'configure the board by its /dev/serial/by-id name (`damlink ports`)',
      ),
    );
  }
  return findings;
}

/** The udev rule from docs/ops, and whether the user is in dialout (serial boards only). */
export function checkSerialSetup(machine: MachinePaths = MACHINE): Finding[] {
  const rule = machine.udevRules.find((p) => existsSync(p));
  const findings = [
    rule
      ? ok('udev rule', rule)
      : warn(
          'udev rule',
          'the damlink udev rule is not installed',
          'sudo cp docs/ops/99-damlink.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger',
        ),
  ];
  if (userInfo().uid === 0) return findings;
  const member = inGroup('dialout', machine.groupFile);
  if (member === false)
    findings.push(
      warn(
        'dialout group',
        `${userInfo().username} is not in the dialout group`,
        `sudo usermod -aG dialout ${userInfo().username}, then log in again`,
      ),
    );
  return findings;
}

/** /dev/hidraw* devices this user may open (node-hid needs them). */
export function checkHidAccess(machine: MachinePaths = MACHINE): Finding {
  let nodes: string[];
  try {
    nodes = readdirSync(machine.devDir).filter((n) => n.startsWith('hidraw'));
  } catch {
    nodes = [];
  }
  if (nodes.length === 0)
    return warn(
      'HID access',
      'no /dev/hidraw devices',
      'plug the HID board in; `damlink ports` lists what is there',
    );
  const denied = nodes.filter((n) => accessProblem(join(machine.devDir, n)));
  if (denied.length === 0) return ok('HID access', `${nodes.length} hidraw device(s) readable and writable`);
  return fail(
    'HID access',
    `cannot open ${denied.map((n) => join(machine.devDir, n)).join(', ')}`,
    'install the udev rule (its hidraw line names your board): sudo cp docs/ops/99-damlink.rules /etc/udev/rules.d/ && sudo udevadm control --reload && sudo udevadm trigger',
  );
}

/** The data directory can be made and written (a real write: read-only file systems stop root too). */
export function checkDataDir(dir: string): Finding {
  const check = 'data directory';
  const probe = join(dir, `.damlink-doctor-${process.pid}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, 'ok');
    rmSync(probe, { force: true });
    return ok(check, `${dir} is writable`);
  } catch (e) {
    return fail(
      check,
      `cannot write in ${dir} (${errorCode(e)})`,
      'give damlink a directory it may write (--data-dir DIR or dataDir: in the config), or fix its owner',
    );
  }
}

/** Nothing else listens on the daemon's port. */
export function checkPort(host: string, port: number): Promise<Finding> {
  const check = `port ${host}:${port}`;
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (e) =>
      resolve(
        fail(
          check,
          `cannot listen (${errorCode(e)})`,
          errorCode(e) === 'EADDRINUSE'
            ? 'another program (another damlink?) uses it: stop it, or give --port'
            : 'give another --host / --port',
        ),
      ),
    );
    server.listen(port, host, () => server.close(() => resolve(ok(check, 'free'))));
  });
}
