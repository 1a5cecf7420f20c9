// Serial and HID devices on this machine, with the ones that look like draughts boards marked.
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { HidApi } from './hid.ts';

export interface PortInfo {
  kind: 'serial' | 'hid';
  /** What to put in the config (`serial:/dev/serial/by-id/…`, `hid:2d80:8002:SERIAL`). */
  source: string;
  path: string;
  byId?: string;
  vendorId?: number;
  productId?: number;
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
  /** Why it looks like a board, when it does. */
  board?: string;
}

/** USB ids that boards are known to use (board-protocols.md). FTDI 0403:6001 is also many other things. */
const KNOWN: Record<string, string> = {
  '0403:6001': 'FTDI serial (DGT boards use it)',
  '04d8:000a': 'CDC-ACM serial (DGT boards use it)',
  '2d80': 'Chessnut-style HID board',
};

const hex = (n: number | undefined): string => (n ?? 0).toString(16).padStart(4, '0');

export function recognise(vendorId?: number, productId?: number, text = ''): string | undefined {
  if (vendorId !== undefined) {
    const exact = KNOWN[`${hex(vendorId)}:${hex(productId)}`] ?? KNOWN[hex(vendorId)];
    if (exact) return exact;
  }
  return /dgt|draught|dam(link|es)?\b|checkers/i.test(text) ? 'name mentions a board' : undefined;
}

/** by-id symlink for each device node (`/dev/ttyUSB0` → `/dev/serial/by-id/usb-…`). */
export function byIdLinks(dir = '/dev/serial/by-id'): Map<string, string> {
  const links = new Map<string, string>();
  try {
    for (const name of readdirSync(dir)) {
      const link = join(dir, name);
      links.set(realpathSync(link), link);
    }
  } catch {
    // no by-id directory: no USB serial devices
  }
  return links;
}

export async function listSerialPorts(): Promise<PortInfo[]> {
  const { SerialPort } = await import('serialport');
  const links = byIdLinks();
  const ports = await SerialPort.list();
  return ports.map((p) => {
    const vendorId = p.vendorId ? Number.parseInt(p.vendorId, 16) : undefined;
    const productId = p.productId ? Number.parseInt(p.productId, 16) : undefined;
    const byId = links.get(p.path);
    const info: PortInfo = {
      kind: 'serial',
      source: `serial:${byId ?? p.path}`,
      path: p.path,
      ...(byId ? { byId } : {}),
      ...(vendorId !== undefined ? { vendorId, productId } : {}),
      ...(p.serialNumber ? { serialNumber: p.serialNumber } : {}),
      ...(p.manufacturer ? { manufacturer: p.manufacturer } : {}),
    };
    const board = recognise(vendorId, productId, `${p.manufacturer ?? ''} ${p.pnpId ?? ''}`);
    return board ? { ...info, board } : info;
  });
}

export async function listHidDevices(api: HidApi): Promise<PortInfo[]> {
  const seen = new Set<string>();
  const out: PortInfo[] = [];
  for (const d of await api.devices()) {
    if (!d.path || seen.has(d.path)) continue;
    seen.add(d.path);
    const source = `hid:${hex(d.vendorId)}:${hex(d.productId)}${d.serialNumber ? `:${d.serialNumber}` : ''}`;
    const board = recognise(d.vendorId, d.productId, `${d.manufacturer ?? ''} ${d.product ?? ''}`);
    out.push({
      kind: 'hid',
      source,
      path: d.path,
      vendorId: d.vendorId,
      productId: d.productId,
      ...(d.serialNumber ? { serialNumber: d.serialNumber } : {}),
      ...(d.manufacturer ? { manufacturer: d.manufacturer } : {}),
      ...(d.product ? { product: d.product } : {}),
      ...(board ? { board } : {}),
    });
  }
  return out;
}

export function formatPorts(ports: PortInfo[]): string {
  if (ports.length === 0) return 'no serial or HID devices found\n';
  const rows = ports.map((p) => [
    p.board ? '*' : ' ',
    p.source,
    p.vendorId !== undefined ? `${hex(p.vendorId)}:${hex(p.productId)}` : '-',
    [p.manufacturer, p.product].filter(Boolean).join(' ') || '-',
    p.board ?? '',
  ]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
  return `${lines.join('\n')}\n* looks like a draughts board\n`;
}
