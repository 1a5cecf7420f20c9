// A board behind a pseudo-terminal pair made by socat: the simulator writes to one end with
// serialport, the daemon opens the other end as if it were /dev/ttyUSB0 — the real serial code path.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SerialPort } from 'serialport';
import type { BoardLink, VirtualBoard } from '../virtual-board.ts';

export interface PtyBoard {
  /** The path the daemon opens (a symlink to /dev/pts/N). */
  address: string;
  /** The simulator's own end. */
  boardEnd: string;
  close(): Promise<void>;
}

/** Spawns `socat pty,raw,echo=0,link=A pty,raw,echo=0,link=B` and waits until both links exist. */
export async function socatPair(boardEnd: string, hostEnd: string): Promise<ChildProcess> {
  const child = spawn('socat', [`pty,raw,echo=0,link=${boardEnd}`, `pty,raw,echo=0,link=${hostEnd}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  for (let i = 0; i < 200; i++) {
    if (existsSync(boardEnd) && existsSync(hostEnd)) return child;
    if (exited) break;
    await sleep(10);
  }
  child.kill();
  throw new Error(`socat did not create ${boardEnd} / ${hostEnd}: ${stderr.trim() || 'timeout'}`);
}

/** `onFirstBytes` fires when the host first writes (opening a PTY is invisible to the other end). */
export async function openPty(
  board: VirtualBoard,
  dir: string,
  name: string,
  onFirstBytes?: () => void,
): Promise<PtyBoard> {
  const boardEnd = join(dir, `${name}.board`);
  const hostEnd = join(dir, name);
  const socat = await socatPair(boardEnd, hostEnd);
  const port = new SerialPort({ path: boardEnd, baudRate: 9600 });
  await new Promise<void>((resolve, reject) => {
    port.once('open', () => resolve());
    port.once('error', reject);
  });
  port.on('error', () => {});
  const link: BoardLink = {
    write: (bytes) => {
      if (port.isOpen) port.write(Buffer.from(bytes));
    },
  };
  let heard = false;
  port.on('data', (chunk: Buffer) => {
    if (!heard) {
      heard = true;
      onFirstBytes?.();
    }
    board.receive(chunk);
  });
  board.attach(link, false);
  return {
    address: hostEnd,
    boardEnd,
    close: async () => {
      board.detach(link);
      if (port.isOpen) await new Promise<void>((r) => port.close(() => r()));
      if (socat.exitCode === null) {
        const exited = new Promise<void>((r) => socat.once('exit', () => r()));
        socat.kill('SIGTERM');
        await exited;
      }
    },
  };
}
