import { describe, expect, it } from 'vitest';
import { formatPorts, listHidDevices, recognise } from '../../../daemon/transport/ports.ts';

describe('damlink ports', () => {
  it('marks known board USB ids and names, not other devices', () => {
    expect(recognise(0x0403, 0x6001)).toMatch(/DGT/);
    expect(recognise(0x04d8, 0x000a)).toMatch(/DGT/);
    expect(recognise(0x2d80, 0x8002)).toMatch(/HID board/);
    expect(recognise(0x046d, 0xc077, 'Logitech USB Mouse')).toBeUndefined();
    expect(recognise(undefined, undefined, 'DGT Projects electronic board')).toBeDefined();
  });

  it('lists HID devices once each with a ready-to-use source', async () => {
    const api = {
      devices: () => [
        {
          vendorId: 0x2d80,
          productId: 0x8002,
          path: '/dev/hidraw0',
          serialNumber: 'CN1',
          product: 'Chessnut Air',
        },
        { vendorId: 0x2d80, productId: 0x8002, path: '/dev/hidraw0', serialNumber: 'CN1' },
        { vendorId: 0x046d, productId: 0xc077, path: '/dev/hidraw1', product: 'Mouse' },
      ],
      open: () => {
        throw new Error('not used');
      },
    };
    const ports = await listHidDevices(api);
    expect(ports.map((p) => [p.source, Boolean(p.board)])).toEqual([
      ['hid:2d80:8002:CN1', true],
      ['hid:046d:c077', false],
    ]);
    const table = formatPorts(ports).split('\n');
    expect(table[0]).toMatch(/^\*\s+hid:2d80:8002:CN1\s+2d80:8002\s+Chessnut Air/);
    expect(table[1]).toMatch(/^ {3}hid:046d:c077/);
    expect(formatPorts([])).toMatch(/no serial or HID devices/);
  });
});
