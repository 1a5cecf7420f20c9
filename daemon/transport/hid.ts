// hid:VID:PID[:serial] — USB HID boards (snapshot reports). node-hid is loaded only when used, and
// the device side is an interface so tests can stand in a fake device.
import { hidHello } from '../../firmware-protocol/index.ts';
import type { ProtocolOptions } from '../../firmware-protocol/types.ts';
import type { Link, LinkOpener } from './link.ts';

export interface HidDeviceInfo {
  vendorId: number;
  productId: number;
  path?: string;
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
  usagePage?: number;
  release?: number;
}

/** The part of node-hid's HID device the transport uses. */
export interface HidDevice {
  on(event: 'data', listener: (report: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  write(report: number[]): number;
  close(): void;
}

export interface HidApi {
  devices(): HidDeviceInfo[];
  open(path: string): HidDevice;
}

/** node-hid, loaded lazily (a missing native module only matters when a HID board is configured). */
export async function nodeHid(): Promise<HidApi> {
  const mod = (await import('node-hid')) as unknown as {
    devices(): HidDeviceInfo[];
    HID: new (path: string) => HidDevice;
  };
  return { devices: () => mod.devices(), open: (path) => new mod.HID(path) };
}

export interface HidTarget {
  vendorId: number;
  productId: number;
  serialNumber?: string;
}

export function findHidDevice(api: HidApi, target: HidTarget): HidDeviceInfo | undefined {
  return api
    .devices()
    .find(
      (d) =>
        d.vendorId === target.vendorId &&
        d.productId === target.productId &&
        (target.serialNumber === undefined || d.serialNumber === target.serialNumber) &&
        d.path !== undefined,
    );
}

export function hidOpener(
  target: HidTarget,
  options: ProtocolOptions = {},
  api: () => Promise<HidApi> = nodeHid,
): LinkOpener {
  return async (handlers) => {
    const hid = await api();
    const info = findHidDevice(hid, target);
    const id = `${target.vendorId.toString(16).padStart(4, '0')}:${target.productId.toString(16).padStart(4, '0')}`;
    if (!info?.path)
      throw new Error(`hid:${id}${target.serialNumber ? `:${target.serialNumber}` : ''}: not connected`);
    const device = hid.open(info.path);
    let done = false;
    device.on('data', (report) => {
      if (!done) handlers.onData(new Uint8Array(report));
    });
    device.on('error', (e) => {
      if (done) return;
      done = true;
      try {
        device.close();
      } catch {
        // already gone
      }
      handlers.onClose(e.message);
    });
    const link: Link = {
      hello: hidHello(info, options),
      write(bytes) {
        if (done || bytes.length === 0) return;
        try {
          device.write([...bytes]);
        } catch (e) {
          done = true;
          handlers.onClose((e as Error).message);
        }
      },
      close() {
        if (done) return;
        done = true;
        device.close();
      },
    };
    return link;
  };
}
