// tcp://host:port — ser2net bridges, Wi-Fi boards and the simulator.
import { connect } from 'node:net';
import { duplexLink, type LinkOpener } from './link.ts';

export function tcpOpener(host: string, port: number, timeoutMs = 3000): LinkOpener {
  return (handlers) =>
    new Promise((resolve, reject) => {
      const socket = connect({ host, port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`tcp://${host}:${port}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      const fail = (e: Error): void => {
        clearTimeout(timer);
        socket.destroy();
        reject(e);
      };
      socket.once('error', fail);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', fail);
        socket.setKeepAlive(true, 5000);
        resolve(duplexLink(socket, handlers));
      });
    });
}
