import type { Etcd3, Watcher } from 'etcd3';
import { WeirError, describeError, type Logger } from '@weir/common';
import { HaErrorCode } from '../errors.ts';
import type { HaKeys } from '../keys.ts';
import type { HaSettings } from '../settings.ts';
import { decodeLeader, type LeaderInfo } from './leader-info.ts';

export type LeaderListener = (leader: LeaderInfo | undefined) => void;

/**
 * Follows the `leader` key: what TaskManagers use to find the JobManager to register with,
 * and standby JobManagers to find the REST API they forward to.
 * Tells the listener the leader now and at every change; undefined while there is none (the
 * last leader's lease lapsed and no successor published yet). After etcd comes back from an
 * outage the key is read again, so no change is missed.
 */
export class LeaderRetrieval {
  #watcher: Watcher | undefined;
  #current: LeaderInfo | undefined;
  #closed = false;

  constructor(
    private readonly etcd: Etcd3,
    private readonly keys: HaKeys,
    private readonly logger: Logger,
  ) {}

  get current(): LeaderInfo | undefined {
    return this.#current;
  }

  async start(listener: LeaderListener): Promise<void> {
    const watcher = await this.etcd.watch().key(this.keys.leader).create();
    this.#watcher = watcher;
    const update = (value: string | undefined) => {
      const leader = value === undefined ? undefined : decodeLeader(value);
      if (value !== undefined && leader === undefined) this.logger.warn({ key: this.keys.leader, value }, 'ignoring a leader record that is not one');
      if (this.#closed || sameLeader(leader, this.#current)) return;
      this.#current = leader;
      listener(leader);
    };
    watcher.on('put', (kv) => update(kv.value.toString()));
    watcher.on('delete', () => update(undefined));
    watcher.on('connected', () => void this.#read().then(update, () => undefined));
    watcher.on('disconnected', (err) => this.logger.warn({ err: describeError(err) }, 'lost the etcd watch on the JobManager leader; reconnecting'));
    watcher.on('error', (err) => this.logger.warn({ err: describeError(err) }, 'etcd watch on the JobManager leader failed'));
    update(await this.#read());
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#watcher?.cancel().catch(() => undefined);
  }

  async #read(): Promise<string | undefined> {
    return (await this.etcd.get(this.keys.leader).string()) ?? undefined;
  }
}

function sameLeader(a: LeaderInfo | undefined, b: LeaderInfo | undefined): boolean {
  return a?.address === b?.address && a?.epoch === b?.epoch && a?.restUrl === b?.restUrl;
}

/**
 * The leader now, for a client command: waits up to `timeoutMs` for one to be published.
 * ETCD_UNREACHABLE when etcd does not answer, NO_LEADER when none was published in time.
 */
export async function findLeader(etcd: Etcd3, keys: HaKeys, settings: Pick<HaSettings, 'endpoints' | 'clusterId'>, timeoutMs: number): Promise<LeaderInfo> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await etcd.get(keys.leader).string();
      const leader = value === null ? undefined : decodeLeader(value);
      if (leader !== undefined) return leader;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const where = `etcd at ${settings.endpoints.join(', ')} (high-availability.etcd.endpoints)`;
  if (lastError !== undefined) {
    throw new WeirError(HaErrorCode.ETCD_UNREACHABLE, `cannot look up the JobManager leader: ${where} did not answer within ${timeoutMs} ms (${describeError(lastError)}); or pass the JobManager's address with -m host:port`, { cause: lastError });
  }
  throw new WeirError(
    HaErrorCode.NO_LEADER,
    `no JobManager leads cluster '${settings.clusterId}' in ${where}: is a JobManager with high-availability.type: etcd and high-availability.cluster-id: ${settings.clusterId} running?`,
  );
}
