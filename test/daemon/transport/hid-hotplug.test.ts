// The HID transport through its device interface (no hidraw needed): node-hid's asynchronous calls,
// and a board that is not plugged in waited for through hotplug events — the devices are asked
// again only when something is plugged in, never on a timer.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type HidApi, type HidDevice, type HidDeviceInfo, hidOpener } from '../../../daemon/transport/hid.ts';

const BOARD: HidDeviceInfo = {
  vendorId: 0x2d80,
  productId: 0x8002,
  path: '/dev/hidraw3',
  serialNumber: 'CN-9',
};
const MOUSE: HidDeviceInfo = { vendorId: 0x046d, productId: 0xc077, path: '/dev/hidraw1' };

class AsyncDevice extends EventEmitter implements HidDevice {
  written: number[][] = [];
  closed = false;
  failWrites = false;
  async write(report: number[]): Promise<number> {
    if (this.failWrites) throw new Error('could not write to HID device');
    this.written.push(report);
    return report.length;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

/** A machine with `plugged` devices and hotplug events the test fires. */
function machine(hotplug = true) {
  let plugged: HidDeviceInfo[] = [];
  const listeners = new Set<() => void>();
  const detachListeners = new Set<() => void>();
  const opened: AsyncDevice[] = [];
  let enumerations = 0;
  const api: HidApi = {
    devices: async () => {
      enumerations++;
      return [...plugged];
    },
    open: async () => {
      const d = new AsyncDevice();
      opened.push(d);
      return d;
    },
    ...(hotplug
      ? {
          onHotplug: (event: 'attach' | 'detach', listener: () => void) => {
            const set = event === 'attach' ? listeners : detachListeners;
            set.add(listener);
            return () => void set.delete(listener);
          },
        }
      : {}),
  };
  return {
    api,
    opened,
    listeners,
    enumerations: () => enumerations,
    detachListeners,
    plug(info: HidDeviceInfo) {
      plugged.push(info);
      for (const l of [...listeners]) l();
    },
    unplug(info: HidDeviceInfo) {
      plugged = plugged.filter((d) => d !== info);
      for (const l of [...detachListeners]) l();
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const handlers = () => {
  const closed: string[] = [];
  return { closed, onData: () => {}, onClose: (reason: string) => closed.push(reason) };
};

describe('HID hotplug', () => {
  it('a board not plugged in is waited for: opened when it arrives, devices asked only on attach', async () => {
    const m = machine();
    const link = hidOpener({ vendorId: 0x2d80, productId: 0x8002 }, {}, async () => m.api)(handlers());
    await sleep(300);
    expect(m.enumerations()).toBe(1);
    m.plug(MOUSE);
    await sleep(20);
    expect(m.enumerations()).toBe(2);
    expect(m.opened).toHaveLength(0);
    m.plug(BOARD);
    const opened = await link;
    expect(m.enumerations()).toBe(3);
    expect(m.opened).toHaveLength(1);
    expect(opened.hello).toMatchObject({ type: 'hello', serial: 'CN-9', protocol: 'hid' });
    // Nothing left listening once the board is there.
    expect(m.listeners.size).toBe(0);
  });

  it('without hotplug events: not connected at once (the connection retries)', async () => {
    const m = machine(false);
    await expect(
      hidOpener({ vendorId: 0x2d80, productId: 0x8002 }, {}, async () => m.api)(handlers()),
    ).rejects.toThrow(/hid:2d80:8002: not connected/);
  });

  it('with hotplug but nothing plugged in: gives up after the wait, and stops listening', async () => {
    const m = machine();
    const started = Date.now();
    await expect(
      hidOpener(
        { vendorId: 0x2d80, productId: 0x8002, serialNumber: 'CN-9' },
        {},
        async () => m.api,
        100,
      )(handlers()),
    ).rejects.toThrow(/not connected/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(m.listeners.size).toBe(0);
    expect(m.enumerations()).toBe(1);
  });

  it('asynchronous writes: a write that fails closes the link with its reason', async () => {
    const m = machine();
    m.plug(BOARD);
    const h = handlers();
    const link = await hidOpener({ vendorId: 0x2d80, productId: 0x8002 }, {}, async () => m.api)(h);
    link.write(Uint8Array.of(2, 1));
    await sleep(0);
    expect(m.opened[0].written).toEqual([[2, 1]]);
    m.opened[0].failWrites = true;
    link.write(Uint8Array.of(2, 2));
    await sleep(0);
    expect(h.closed).toEqual(['could not write to HID device']);
    expect(m.opened[0].closed).toBe(true);
  });

  it('unplugged: the detach event closes the link (another device unplugged does not)', async () => {
    const m = machine();
    m.plug(MOUSE);
    m.plug(BOARD);
    const h = handlers();
    await hidOpener({ vendorId: 0x2d80, productId: 0x8002 }, {}, async () => m.api)(h);
    m.unplug(MOUSE);
    await sleep(10);
    expect(h.closed).toEqual([]);
    m.unplug(BOARD);
    await sleep(10);
    expect(h.closed).toEqual(['unplugged']);
    expect(m.opened[0].closed).toBe(true);
    expect(m.detachListeners.size).toBe(0);
  });
});
