/**
 * A job whose main looks for the secrets of the process it runs in and writes what it found to
 * <args[0]>/found-<pid>.json: what an attacker who may submit jobs would send home. The main
 * runs in the JobManager's job worker, and again in each TaskManager that rebuilds the graph.
 */
export const SECRET_SNIFFER = `
import { writeFileSync } from 'node:fs';
import { StreamExecutionEnvironment, Types } from '@weir/api';
import { DataGeneratorSource, DiscardingSink, RateLimiterStrategy } from '@weir/connectors';

export default function sniff(env: StreamExecutionEnvironment, args: string[]) {
  const found = {
    secretKey: process.env.WEIR_S3_SECRET_KEY ?? null,
    accessKey: process.env.WEIR_S3_ACCESS_KEY ?? null,
    weirVariables: Object.keys(process.env).filter((name) => name.startsWith('WEIR_')).sort(),
    anyValueWithTheSecret: Object.values(process.env).some((value) => value !== undefined && value.includes('jm-only-secret')),
  };
  writeFileSync(args[0] + '/found-' + process.pid + '.json', JSON.stringify(found));
  env.fromSource(new DataGeneratorSource((i: number) => i, 10, RateLimiterStrategy.perSecond(1000), Types.NUMBER), 'numbers').uid('numbers')
    .sinkTo(new DiscardingSink<number>()).uid('sink');
}
`;
