// A server-to-client WebSocket text frame (RFC 6455 §5.2), built once and written to every
// spectator's socket as it is: with 10,000 viewers, framing per socket (a header allocation, a
// corked two-buffer write) cost more than the write itself.

/** The complete frame (FIN, opcode 1, unmasked) carrying `text` (written as UTF-8). */
export function textFrame(text: string): Buffer {
  const n = Buffer.byteLength(text);
  const header = n < 126 ? 2 : n < 65536 ? 4 : 10;
  const out = Buffer.allocUnsafe(header + n);
  out[0] = 0x81;
  if (n < 126) out[1] = n;
  else if (n < 65536) {
    out[1] = 126;
    out.writeUInt16BE(n, 2);
  } else {
    out[1] = 127;
    out.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    out.writeUInt32BE(n >>> 0, 6);
  }
  out.write(text, header);
  return out;
}
