import { StateTtlConfig } from '@weir/api';
import { SqlError, SqlErrorCode, type SqlPosition } from './errors.ts';

/** Flink's duration text: '1 h', '30min', '10 s', '500 ms', or a number of milliseconds. */
const UNITS: Readonly<Record<string, number>> = {
  ms: 1, milli: 1, millis: 1, millisecond: 1, milliseconds: 1,
  s: 1_000, sec: 1_000, secs: 1_000, second: 1_000, seconds: 1_000,
  min: 60_000, m: 60_000, minute: 60_000, minutes: 60_000,
  h: 3_600_000, hour: 3_600_000, hours: 3_600_000,
  d: 86_400_000, day: 86_400_000, days: 86_400_000,
};

export function parseDuration(text: string, key: string, pos?: SqlPosition): number {
  const match = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match === null ? undefined : UNITS[(match[2] ?? '').toLowerCase() || 'ms'];
  if (match === null || unit === undefined) {
    throw new SqlError(SqlErrorCode.SQL_INVALID_OPTION, `'${key}' takes a duration such as '1 h', '30 min', '10 s' or '500 ms', got '${text}'`, pos);
  }
  return Number(match[1]) * unit;
}

/** Keys whose values are checked when set; any other key is kept as given (Flink's SET takes any). */
const DURATIONS = ['table.exec.state.ttl'];

/**
 * A table environment's configuration (Flink's TableConfig), set by `getConfig().set(k, v)` or
 * `SET 'k' = 'v'`. `table.exec.state.ttl`: how long the state of a key of a regular join or an
 * unbounded aggregate is kept after it was last written (0: forever, the default).
 */
export class TableConfig {
  readonly #values = new Map<string, string>();

  set(key: string, value: string, pos?: SqlPosition): this {
    if (DURATIONS.includes(key)) parseDuration(value, key, pos);
    this.#values.set(key, value);
    return this;
  }

  get(key: string): string | undefined {
    return this.#values.get(key);
  }

  reset(key?: string): void {
    if (key === undefined) this.#values.clear();
    else this.#values.delete(key);
  }

  entries(): Array<[string, string]> {
    return [...this.#values].sort(([a], [b]) => a.localeCompare(b));
  }

  /**
   * The state TTL of joins and aggregates, as Flink's StateConfigUtil makes it: expired
   * OnCreateAndWrite, never returned once expired; none when 'table.exec.state.ttl' is 0 or unset.
   */
  stateTtl(): StateTtlConfig | undefined {
    const text = this.#values.get('table.exec.state.ttl');
    const ms = text === undefined ? 0 : parseDuration(text, 'table.exec.state.ttl');
    return ms > 0 ? StateTtlConfig.newBuilder(ms).build() : undefined;
  }
}
