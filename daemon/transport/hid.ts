// hid:VID:PID[:serial] — USB HID boards (snapshot reports). node-hid is loaded only when used, through
// its asynchronous API (enumerating and opening happen off the event loop), and a board that is not
// plugged in is waited for through USB hotplug events (the `usb` package) instead of enumerating
// every device again and again. The device side is an interface so tests can stand in a fake.
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

/** The part of node-hid's (async) HID device the transport uses; write and close may return promises. */
export interface HidDevice {
  on(event: 'data', listener: (report: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  write(report: number[]): unknown;
  close(): unknown;
}

export interface HidApi {
  devices(): HidDeviceInfo[] | Promise<HidDeviceInfo[]>;
  open(path: string): HidDevice | Promise<HidDevice>;
  /** Calls `listener` whenever a USB device is plugged in (`attach`) or out (`detach`); returns the
   * stop. Absent: no hotplug events. */
  onHotplug?(event: HotplugEvent, listener: () => void): () => void;
}

export type HotplugEvent = 'attach' | 'detach';

interface NodeHidModule {
  devicesAsync(): Promise<HidDeviceInfo[]>;
  HIDAsync: { open(path: string): Promise<HidDevice> };
}

interface UsbModule {
  usb: {
    on(event: HotplugEvent, listener: () => void): unknown;
    off(event: HotplugEvent, listener: () => void): unknown;
  };
}

/** The `usb` package's hotplug events, when it can be loaded (it is optional: without it, no hotplug). */
async function usbHotplug(): Promise<HidApi['onHotplug']> {
  try {
    // A variable specifier: the module is optional, and its types are only the few used here.
    const name = 'usb';
    const { usb } = (await import(name)) as UsbModule;
    return (event, listener) => {
      usb.on(event, listener);
      return () => void usb.off(event, listener);
    };
  } catch {
    return undefined;
  }
}

/** node-hid, loaded lazily (a missing native module only matters when a HID board is configured). */
export async function nodeHid(): Promise<HidApi> {
  const mod = (await import('node-hid')) as unknown as NodeHidModule;
  const onHotplug = await usbHotplug();
  return {
    devices: () => mod.devicesAsync(),
    open: (path) => mod.HIDAsync.open(path),
    ...(onHotplug ? { onHotplug } : {}),
  };
}

export interface HidTarget {
  vendorId: number;
  productId: number;
  serialNumber?: string;
}

export function findHidDevice(
  devices: readonly HidDeviceInfo[],
  target: HidTarget,
): HidDeviceInfo | undefined {
  return devices.find(
    (d) =>
      d.vendorId === target.vendorId &&
      d.productId === target.productId &&
      (target.serialNumber === undefined || d.serialNumber === target.serialNumber) &&
      d.path !== undefined,
  );
}

/** How long an opener waits for the board to be plugged in before it gives up (and is asked again). */
export const HOTPLUG_WAIT_MS = 60_000;

/** The device now, or (with hotplug) the first time one is plugged in that matches, within `waitMs`. */
async function waitForDevice(
  hid: HidApi,
  target: HidTarget,
  waitMs: number,
): Promise<HidDeviceInfo | undefined> {
  const now = findHidDevice(await hid.devices(), target);
  if (now || !hid.onHotplug) return now;
  const onHotplug = hid.onHotplug;
  return new Promise((resolve) => {
    let done = false;
    const finish = (info: HidDeviceInfo | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop();
      resolve(info);
    };
    const timer = setTimeout(() => finish(undefined), waitMs);
    timer.unref?.();
    const stop = onHotplug('attach', () => {
      // Only when something was plugged in are the devices asked again.
      void Promise.resolve(hid.devices()).then(
        (devices) => {
          const found = findHidDevice(devices, target);
          if (found) finish(found);
        },
        () => {},
      );
    });
  });
}

/** A promise a device method may return: its failure is the link's. */
const settle = (result: unknown, onError: (e: Error) => void): void => {
  if (result instanceof Promise) result.catch(onError);
};

export function hidOpener(
  target: HidTarget,
  options: ProtocolOptions = {},
  api: () => Promise<HidApi> = nodeHid,
  waitMs = HOTPLUG_WAIT_MS,
): LinkOpener {
  return async (handlers) => {
    const hid = await api();
    const info = await waitForDevice(hid, target, waitMs);
    const id = `${target.vendorId.toString(16).padStart(4, '0')}:${target.productId.toString(16).padStart(4, '0')}`;
    if (!info?.path)
      throw new Error(`hid:${id}${target.serialNumber ? `:${target.serialNumber}` : ''}: not connected`);
    const device = await hid.open(info.path);
    let done = false;
    let stopDetach: (() => void) | undefined;
    const lost = (e: Error) => {
      if (done) return;
      done = true;
      stopDetach?.();
      try {
        settle(device.close(), () => {});
      } catch {
        // already gone
      }
      handlers.onClose(e.message);
    };
    device.on('data', (report) => {
      if (!done) handlers.onData(new Uint8Array(report));
    });
    device.on('error', lost);
    // Unplugged: the device's path is gone from the list (its read error may come late, or never).
    stopDetach = hid.onHotplug?.('detach', () => {
      void Promise.resolve(hid.devices()).then(
        (devices) => {
          if (!devices.some((d) => d.path === info.path)) lost(new Error('unplugged'));
        },
        () => {},
      );
    });
    const link: Link = {
      hello: hidHello(info, options),
      write(bytes) {
        if (done || bytes.length === 0) return;
        try {
          settle(device.write([...bytes]), lost);
        } catch (e) {
          lost(e as Error);
        }
      },
      close() {
        if (done) return;
        done = true;
        stopDetach?.();
        settle(device.close(), () => {});
      },
    };
    return link;
  };
}
