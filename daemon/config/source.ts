// Board sources as people write them (`serial:/dev/ttyUSB0`, `/dev/ttyACM0`, `hid:0403:6001`,
// `tcp://127.0.0.1:7001`, `sim:board-3` / `memory:board-3` for in-process simulator boards) parsed into a typed value. Never throws on user text.
import { err, ok, type Result } from '../../src/result.ts';

export type BoardSource =
  | { kind: 'serial'; path: string; text: string }
  | { kind: 'hid'; vendorId: number; productId: number; serialNumber?: string; text: string }
  | { kind: 'tcp'; host: string; port: number; text: string }
  /** A board of the in-process simulator, by its name or number (demo and tests). */
  | { kind: 'sim'; name: string; text: string };

const SCHEMES = 'serial:, hid:, tcp:';

function hex16(s: string): number | undefined {
  return /^(0x)?[0-9a-f]{1,4}$/i.test(s) ? Number.parseInt(s.replace(/^0x/i, ''), 16) : undefined;
}

export function parseSource(text: string): Result<BoardSource, { code: string; message: string }> {
  const s = text.trim();
  if (s === '') return err({ code: 'empty', message: 'empty board source' });
  if (s.startsWith('/') || /^COM\d+$/i.test(s)) return ok({ kind: 'serial', path: s, text: s });
  const scheme = /^([a-z][a-z0-9+.-]*):(.*)$/i.exec(s);
  if (!scheme) {
    return err({ code: 'unknown-scheme', message: `cannot read board source "${s}"; expected ${SCHEMES}` });
  }
  const [, name, rest] = scheme;
  switch (name.toLowerCase()) {
    case 'serial': {
      const path = rest.replace(/^\/\/(?=\/)/, '');
      return path
        ? ok({ kind: 'serial', path, text: s })
        : err({ code: 'no-path', message: 'serial: needs a device path' });
    }
    case 'hid': {
      const [vid, pid, ...serial] = rest.split(':');
      const vendorId = hex16(vid ?? '');
      const productId = hex16(pid ?? '');
      if (vendorId === undefined || productId === undefined) {
        return err({ code: 'bad-hid', message: `"${s}": expected hid:VID:PID[:serial] with hex ids` });
      }
      const serialNumber = serial.join(':') || undefined;
      return ok({ kind: 'hid', vendorId, productId, serialNumber, text: s });
    }
    case 'tcp': {
      const m = /^\/\/(\[[^\]]+\]|[^:/]+):(\d{1,5})\/?$/.exec(rest);
      const port = m ? Number(m[2]) : Number.NaN;
      if (!m || port < 1 || port > 65535) {
        return err({ code: 'bad-tcp', message: `"${s}": expected tcp://host:port` });
      }
      return ok({ kind: 'tcp', host: m[1].replace(/^\[|\]$/g, ''), port, text: s });
    }
    case 'sim':
    case 'memory':
      return rest
        ? ok({ kind: 'sim', name: rest, text: s })
        : err({ code: 'no-name', message: 'sim: needs a board name' });
    default:
      return err({ code: 'unknown-scheme', message: `unknown scheme "${name}"; expected ${SCHEMES}` });
  }
}
