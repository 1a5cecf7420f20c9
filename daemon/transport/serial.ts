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
        // SerialPort has no _destroy: destroying the stream leaves the port open, and its poller
        // waiting on the descriptor for a byte keeps the process alive while the board is quiet.
        // close() stops that poller and closes the descriptor.
        const close = () => {
          if (port.isOpen) port.close(() => {});
        };
        resolve(duplexLink(port, handlers, close));
      });
    });
  };
}
