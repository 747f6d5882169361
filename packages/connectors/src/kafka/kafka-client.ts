import type { Admin, Consumer } from '@platformatic/kafka';
import { closestKey, WeirError } from '@weir/common';
import { ConnectorErrorCode } from '../errors.ts';
import { kafkaLibrary } from './kafka-library.ts';

/** Where a Kafka connector connects, and how it names itself. */
export interface KafkaClientSettings {
  /** host:port of each bootstrap broker. */
  readonly bootstrapServers: readonly string[];
  readonly clientId: string;
}

/** A setProperty key the connector does not know: "did you mean" the nearest known key, else the list of them. */
export function unknownProperty(connector: string, key: string, known: readonly string[]): string {
  const suggestion = closestKey(key, known);
  const hint = suggestion === undefined ? `it knows ${known.join(', ')}` : `did you mean ${suggestion}? (it knows ${known.join(', ')})`;
  return `${connector} has no property '${key}'; ${hint}`;
}

/** `host:port[,host:port...]` as Kafka's bootstrap.servers takes it; throws INVALID_ARGUMENT naming the bad entry. */
export function parseBootstrapServers(value: unknown): string[] {
  const servers = typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter((s) => s !== '') : [];
  const bad = servers.find((s) => !/^[^:\s]+:\d{1,5}$/.test(s));
  if (servers.length === 0 || bad !== undefined) {
    throw new WeirError(
      ConnectorErrorCode.INVALID_ARGUMENT,
      `setBootstrapServers() takes host:port[,host:port...] (bootstrap.servers), got ${JSON.stringify(value)}${bad === undefined ? '' : `: '${bad}' is no host:port`}`,
    );
  }
  return servers;
}

/** Every message in an error and the errors it wraps (@platformatic/kafka nests them), once each. */
export function describeKafkaError(err: unknown): string {
  const messages: string[] = [];
  const visit = (e: unknown, depth: number): void => {
    if (depth > 5 || e === null || e === undefined) return;
    const error = e as { message?: unknown; errors?: unknown; cause?: unknown; apiId?: unknown };
    const nested = Array.isArray(error.errors) ? error.errors : [];
    const own = typeof error.message === 'string' ? error.message : String(e);
    const named = typeof error.apiId === 'string' ? `${own} (${error.apiId})` : own;
    if (nested.length === 0 && !messages.includes(named)) messages.push(named);
    for (const inner of nested) visit(inner, depth + 1);
    if (error.cause !== undefined) visit(error.cause, depth + 1);
  };
  visit(err, 0);
  return messages.join('; ');
}

/** The Kafka error code names in an error (its own and the nested ones). */
export function kafkaErrorIds(err: unknown): Set<string> {
  const ids = new Set<string>();
  const visit = (e: unknown, depth: number): void => {
    if (depth > 5 || e === null || typeof e !== 'object') return;
    const error = e as { errors?: unknown; cause?: unknown; apiId?: unknown };
    if (typeof error.apiId === 'string') ids.add(error.apiId);
    if (Array.isArray(error.errors)) for (const inner of error.errors) visit(inner, depth + 1);
    visit(error.cause, depth + 1);
  };
  visit(err, 0);
  return ids;
}

/** Whether the error is the cluster not answering at all (as opposed to answering with an error). */
export function isUnreachable(err: unknown): boolean {
  const text = describeKafkaError(err);
  return /Cannot connect to any broker|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|timed out|Connection closed|socket hang up/i.test(text);
}

/**
 * A WeirError for a failed call: KAFKA_UNREACHABLE naming the addresses and the setting, or
 * KAFKA_ERROR with Kafka's own message; `what` says what was being done.
 */
export function kafkaFailure(err: unknown, settings: KafkaClientSettings, what: string): WeirError {
  if (err instanceof WeirError) return err;
  const detail = describeKafkaError(err);
  if (isUnreachable(err)) {
    return new WeirError(
      ConnectorErrorCode.KAFKA_UNREACHABLE,
      `cannot reach the Kafka cluster at ${settings.bootstrapServers.join(', ')} (bootstrap.servers, setBootstrapServers) while ${what}: ${detail}; check that the brokers run and the addresses are right`,
      { cause: err },
    );
  }
  return new WeirError(ConnectorErrorCode.KAFKA_ERROR, `Kafka failed while ${what}: ${detail}`, { cause: err });
}

/** Connection settings every client of ours shares: a few quick retries, then the caller decides. */
function baseOptions(settings: KafkaClientSettings, role: string) {
  return { clientId: `${settings.clientId}-${role}`, bootstrapBrokers: [...settings.bootstrapServers], retries: 3, retryDelay: 250, connectTimeout: 5_000 };
}

export function createAdmin(settings: KafkaClientSettings): Admin {
  return new (kafkaLibrary().Admin)(baseOptions(settings, 'admin'));
}

/** A consumer used only for its metadata, list-offsets and fetch calls: it never joins its group. */
export function createFetchClient(settings: KafkaClientSettings): Consumer {
  return new (kafkaLibrary().Consumer)({ ...baseOptions(settings, 'fetcher'), groupId: `${settings.clientId}-unused-group` });
}

/** Offsets as connectors keep them: JS numbers (exact below 2^53, far beyond any real log). */
export function toOffset(value: bigint): number {
  return Number(value);
}
