// `damlink ports`: the serial and HID devices here, marking the ones that look like boards.
import type { Command } from 'commander';
import { nodeHid } from '../transport/hid.ts';
import { formatPorts, listHidDevices, listSerialPorts, type PortInfo } from '../transport/ports.ts';

export function registerPorts(program: Command): void {
  program
    .command('ports')
    .description('List serial and HID devices (with USB ids and by-id paths); boards are marked with *.')
    .option('--json', 'one JSON array instead of a table')
    .action(async (flags: { json?: boolean }) => {
      const ports: PortInfo[] = [];
      const problems: string[] = [];
      try {
        ports.push(...(await listSerialPorts()));
      } catch (e) {
        problems.push(`serial ports: ${(e as Error).message}`);
      }
      try {
        ports.push(...(await listHidDevices(await nodeHid())));
      } catch (e) {
        problems.push(`HID devices: ${(e as Error).message}`);
      }
      process.stdout.write(flags.json ? `${JSON.stringify(ports, null, 2)}\n` : formatPorts(ports));
      for (const p of problems) console.error(`damlink: ${p}`);
    });
}
