import { readFileSync } from 'node:fs';

/** CPU seconds process `pid` used so far (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
export function cpuSeconds(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
