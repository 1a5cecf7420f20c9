// serial:/dev/… — USB serial boards (FTDI, CDC-ACM), Bluetooth RFCOMM, socat PTYs.
import { duplexLink, type LinkOpener } from './link.ts';

export function serialOpener(path: string, baudRate: number): LinkOpener {
  return async (handlers) => {
    // Loaded when a serial board is configured: the native module costs start-up time otherwise.
    const { SerialPort } = await import('serialport');
    return new Promise((resolve, reject) => {
      const port = new SerialPort({ path, baudRate, autoOpen: false, hupcl: false });
      port.open((e) => {
        if (e) {
          reject(e);
          return;
        }
        resolve(duplexLink(port, handlers));
      });
    });
  };
}
