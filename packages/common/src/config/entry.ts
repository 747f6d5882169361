/** One key set by one source, before validation. */
export interface ConfigEntry {
  readonly key: string;
  readonly raw: unknown;
  /** Where the value came from, for messages: `file /etc/weir.yaml`, `environment variable WEIR_…`, `-D key=value`. */
  readonly origin: string;
}
