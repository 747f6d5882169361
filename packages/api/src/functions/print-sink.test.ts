import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectorContext } from '../connector/types.ts';
import { PrintSink } from './print-sink.ts';

const context = (subtaskIndex: number, parallelism: number): ConnectorContext => ({ jobId: 'j', subtaskIndex, parallelism, attemptNumber: 0 });

function printed(sink: PrintSink<unknown>, ctx: ConnectorContext, records: unknown[]): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  const writer = sink.createWriter(ctx);
  for (const record of records) writer.write(record);
  vi.restoreAllMocks();
  return lines;
}

describe('PrintSink', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('prints String(record) per line, prefixed as Flink does', () => {
    expect(printed(new PrintSink(), context(0, 1), ['a', 1, { toString: () => 'obj' }])).toEqual(['a\n', '1\n', 'obj\n']);
    expect(printed(new PrintSink(), context(2, 4), ['a'])).toEqual(['3> a\n']);
    expect(printed(new PrintSink('out'), context(0, 1), ['a'])).toEqual(['out> a\n']);
    expect(printed(new PrintSink('out'), context(1, 2), ['a'])).toEqual(['out:2> a\n']);
  });

  it('prints to stderr with stdErr (printToErr)', () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    new PrintSink(undefined, true).createWriter(context(1, 2)).write('e');
    expect(lines).toEqual(['2> e\n']);
  });

  it('makes the task wait for drain when stdout is full', async () => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => false);
    const result = new PrintSink().createWriter(context(0, 1)).write('x');
    expect(result).toBeInstanceOf(Promise);
    let drained = false;
    void (result as Promise<void>).then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    process.stdout.emit('drain');
    await result;
    expect(drained).toBe(true);
  });
});
