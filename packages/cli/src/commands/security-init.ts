import { initClusterSecurity } from '@weir/security';
import type { CliContext } from '../context.ts';
import type { SecurityInitArgs } from '../program-security.ts';

/** `weir security init <dir> --host … --ip …`: writes the files and says which key takes which. */
export async function securityInitCommand(args: SecurityInitArgs, context: CliContext): Promise<void> {
  const result = await initClusterSecurity(args.dir, { hosts: args.hosts, ips: args.ips });
  context.out(result.reusedCa ? `Kept the CA in ${result.dir}; wrote new node and REST certificates (running processes take them within a second).` : `Wrote a new CA, node and REST certificates and a tokens file to ${result.dir}.`);
  context.out('');
  context.out('Set these keys on every JobManager and TaskManager (weir.yaml or -D):');
  for (const [key, value] of Object.entries(result.keys)) context.out(`  ${key}: ${value}`);
  context.out('');
  context.out(`Clients (weir run, list, ...) need security.ssl.internal.ca: ${result.keys['security.ssl.internal.ca']} and a token.`);
  context.out('');
  context.out('With high-availability.type: etcd, start etcd with TLS and client certificates, and give its endpoints as https://:');
  context.out(`  etcd --cert-file ${result.etcd.cert} --key-file ${result.etcd.key} --trusted-ca-file ${result.etcd.ca} --client-cert-auth --listen-client-urls https://… --advertise-client-urls https://…`);
  if (result.adminToken !== undefined) {
    context.out('');
    context.out('The admin token, shown this once (the tokens file keeps only its SHA-256):');
    context.out(`  ${result.adminToken}`);
    context.out('Pass it as WEIR_TOKEN or in a file given to --token-file; add lines to the tokens file for other principals (weir security init prints none of them again).');
  }
}
