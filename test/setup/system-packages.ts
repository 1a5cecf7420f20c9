// The Debian/Ubuntu packages the test suite needs. One list: `npm test` (its pretest) checks and
// installs these; add a package here when a test starts to need one.
export interface SystemPackage {
  /** The apt package name. */
  name: string;
  /** A program it installs: its presence on PATH is the cheap check (else dpkg-query). */
  binary?: string;
  why: string;
}

export const SYSTEM_PACKAGES: readonly SystemPackage[] = [
  { name: 'socat', binary: 'socat', why: 'PTY pairs for the real serial path' },
  { name: 'mosquitto', binary: 'mosquitto', why: 'the MQTT broker the publisher tests talk to' },
  { name: 'chromium', binary: 'chromium', why: 'the web pages tests (playwright-core drives it)' },
  { name: 'libusb-1.0-0', why: "node-hid's Linux binary links it" },
  { name: 'openssh-server', why: "the publish tests' SFTP server (sshd with internal-sftp)" },
  { name: 'vsftpd', why: "the publish tests' FTP and FTPS server" },
  { name: 'openssl', binary: 'openssl', why: "the FTPS tests' throwaway certificate" },
];
