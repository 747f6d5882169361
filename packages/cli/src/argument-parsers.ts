import { InvalidArgumentError } from 'commander';

/** `-D key=value`, repeatable: collected into one record, later values winning. */
export function collectProperty(text: string, previous: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const at = text.indexOf('=');
  if (at <= 0) throw new InvalidArgumentError(`expected key=value, such as -D jobmanager.rpc.port=6123`);
  return { ...previous, [text.slice(0, at)]: text.slice(at + 1) };
}

/** `-m host:port`. */
export function parseAddress(text: string): string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d+)$/.exec(text);
  if (match === null || Number(match[2]) > 65_535) {
    throw new InvalidArgumentError('expected host:port with a port from 0 to 65535, such as localhost:6123');
  }
  return text;
}

export function parsePositiveInt(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return Number(text);
}
