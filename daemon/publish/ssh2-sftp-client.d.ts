// The part of ssh2-sftp-client (which ships no types) that the SFTP target uses.
declare module 'ssh2-sftp-client' {
  interface ConnectOptions {
    host: string;
    port: number;
    username: string;
    password?: string;
    privateKey?: Buffer;
    passphrase?: string;
    readyTimeout?: number;
    keepaliveInterval?: number;
    keepaliveCountMax?: number;
    retries?: number;
    hostVerifier?: (key: Buffer) => boolean;
  }
  interface EventCallbacks {
    error?: (err: Error) => void;
    end?: () => void;
    close?: () => void;
  }
  export default class SftpClient {
    constructor(name?: string, callbacks?: EventCallbacks);
    connect(options: ConnectOptions): Promise<unknown>;
    mkdir(path: string, recursive?: boolean): Promise<string>;
    put(input: Buffer | string, remotePath: string): Promise<string>;
    posixRename(from: string, to: string): Promise<string>;
    end(): Promise<boolean>;
  }
}
