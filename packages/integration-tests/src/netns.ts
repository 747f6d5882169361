import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';

/** A host of a NetnsLab: its namespace and address. */
export interface LabHost {
  readonly name: string;
  readonly namespace: string;
  readonly address: string;
}

/**
 * Hosts for multi-host tests: one network namespace per host, each joined to one bridge by a
 * veth pair, with an address in a /24 of 10.x chosen at random (so labs of parallel runs do
 * not meet). The bridge has the .1 address, so the test process reaches every host. Created
 * by `create`, removed by `destroy` (also on process exit); `create` answers why not when
 * this machine does not allow network namespaces, so the test can skip with that reason.
 */
export class NetnsLab {
  readonly hosts = new Map<string, LabHost>();
  readonly #bridge: string;
  readonly #prefix: string;
  readonly #subnet: string;
  #destroyed = false;
  readonly #onExit = () => this.destroy();

  private constructor(id: string, subnet: string) {
    this.#bridge = `wbr${id}`;
    this.#prefix = `weir-${id}`;
    this.#subnet = subnet;
    process.on('exit', this.#onExit);
  }

  /** The lab, or the reason it cannot be made here (for `it.skipIf`). */
  static create(names: readonly string[]): NetnsLab | string {
    const reason = NetnsLab.unavailable();
    if (reason !== undefined) return reason;
    const lab = new NetnsLab(randomBytes(3).toString('hex'), `10.${randomInt(100, 250)}.${randomInt(0, 255)}`);
    try {
      lab.#up(names);
    } catch (err) {
      lab.destroy();
      throw err;
    }
    return lab;
  }

  /** Why network namespaces cannot be used here, or undefined when they can. */
  static unavailable(): string | undefined {
    if (process.platform !== 'linux') return `network namespaces need Linux, this is ${process.platform}`;
    const probe = `weir-probe-${randomBytes(3).toString('hex')}`;
    try {
      execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe' });
      execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe' });
      execFileSync('iptables', ['--version'], { stdio: 'pipe' });
    } catch (err) {
      return `network namespaces or iptables are not permitted here (${(err as Error).message.split('\n')[0]}): the multi-host tests need root with ip netns and iptables`;
    }
    return undefined;
  }

  host(name: string): LabHost {
    const host = this.hosts.get(name);
    if (host === undefined) throw new Error(`no host ${name} in the lab`);
    return host;
  }

  address(name: string): string {
    return this.host(name).address;
  }

  /** The command prefix that runs a program on `name`. */
  exec(name: string): string[] {
    return ['ip', 'netns', 'exec', this.host(name).namespace];
  }

  /** Drops every packet between `name` and each of `peers`, both ways, inside `name`'s namespace. */
  cut(name: string, peers: readonly string[]): void {
    for (const peer of peers) {
      const address = this.address(peer);
      this.#iptables(name, ['-A', 'INPUT', '-s', address, '-j', 'DROP']);
      this.#iptables(name, ['-A', 'OUTPUT', '-d', address, '-j', 'DROP']);
    }
  }

  /** Removes every rule `cut` added on `name`. */
  heal(name: string): void {
    this.#iptables(name, ['-F', 'INPUT']);
    this.#iptables(name, ['-F', 'OUTPUT']);
  }

  /** Removes namespaces and bridge; processes inside must have been stopped first. */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    process.off('exit', this.#onExit);
    for (const host of this.hosts.values()) run(['ip', 'netns', 'del', host.namespace], true);
    run(['iptables', '-w', '-D', 'FORWARD', ...this.#bridgeRule()], true);
    run(['ip', 'link', 'del', this.#bridge], true);
  }

  #up(names: readonly string[]): void {
    run(['ip', 'link', 'add', this.#bridge, 'type', 'bridge']);
    run(['ip', 'addr', 'add', `${this.#subnet}.1/24`, 'dev', this.#bridge]);
    run(['ip', 'link', 'set', this.#bridge, 'up']);
    // With br_netfilter loaded, bridged packets go through the host's FORWARD chain, whose
    // policy is DROP once Docker runs: the lab's hosts would not reach each other. Accept the
    // lab's own bridge only; destroy() removes the rule.
    run(['iptables', '-w', '-I', 'FORWARD', ...this.#bridgeRule()]);
    names.forEach((name, i) => {
      const namespace = `${this.#prefix}-${name}`;
      const address = `${this.#subnet}.${i + 2}`;
      const outside = `wv${this.#bridge.slice(3)}${i}`;
      run(['ip', 'netns', 'add', namespace]);
      this.hosts.set(name, { name, namespace, address });
      run(['ip', 'link', 'add', outside, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace]);
      run(['ip', 'link', 'set', outside, 'master', this.#bridge]);
      run(['ip', 'link', 'set', outside, 'up']);
      const inNs = ['ip', 'netns', 'exec', namespace];
      run([...inNs, 'ip', 'addr', 'add', `${address}/24`, 'dev', 'eth0']);
      run([...inNs, 'ip', 'link', 'set', 'eth0', 'up']);
      run([...inNs, 'ip', 'link', 'set', 'lo', 'up']);
    });
  }

  #bridgeRule(): string[] {
    return ['-i', this.#bridge, '-o', this.#bridge, '-j', 'ACCEPT'];
  }

  #iptables(name: string, args: readonly string[]): void {
    run([...this.exec(name), 'iptables', '-w', ...args]);
  }
}

function run(argv: readonly string[], ignoreFailure = false): void {
  try {
    execFileSync(argv[0]!, argv.slice(1), { stdio: 'pipe' });
  } catch (err) {
    if (!ignoreFailure) throw new Error(`${argv.join(' ')} failed: ${(err as { stderr?: Buffer }).stderr?.toString().trim() ?? (err as Error).message}`);
  }
}
