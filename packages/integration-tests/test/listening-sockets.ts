import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The PIDs of processes whose command line contains `marker` (a test's own temp dir). */
export function pidsWith(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
}

/** The command line of `pid` as `ps` shows it. */
export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
}

/** `ip:port` of every TCP socket `pid` listens on, read from /proc (IPv4 and IPv6). */
export function listeningAddresses(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match !== null) inodes.add(match[1]!);
    } catch {
      // The descriptor closed while we looked.
    }
  }
  const addresses: string[] = [];
  for (const [file, decode] of [
    ['/proc/net/tcp', ipv4],
    ['/proc/net/tcp6', ipv6],
  ] as const) {
    for (const line of readFileSync(file, 'utf8').trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1]!, fields[3]!, fields[9]!];
      if (state !== '0A' || !inodes.has(inode)) continue;
      const [host, port] = local.split(':') as [string, string];
      addresses.push(`${decode(host)}:${parseInt(port, 16)}`);
    }
  }
  return addresses.sort();
}

function ipv4(hex: string): string {
  return [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join('.');
}

function ipv6(hex: string): string {
  if (hex === '00000000000000000000000001000000') return '::1';
  if (hex === '00000000000000000000000000000000') return '::';
  if (hex.startsWith('0000000000000000FFFF0000')) return `::ffff:${ipv4(hex.slice(24))}`;
  return hex;
}
