import { connect, type Socket } from 'node:net';

/**
 * A minimal Redis client (RESP 2 over one socket, requests pipelined, replies matched in
 * order) for redis-async.test.ts and the job it runs: no Redis package is a dependency, and
 * the job bundles this file. Bulk strings, integers, simple strings, nil and errors only.
 */
export class RedisConnection {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  readonly #pending: { resolve: (reply: string | number | null) => void; reject: (err: Error) => void }[] = [];
  #failure: Error | undefined;

  constructor(host: string, port: number) {
    this.#socket = connect(port, host);
    this.#socket.on('data', (data: Buffer) => this.#onData(data));
    this.#socket.on('error', (err) => this.#fail(err));
    this.#socket.on('close', () => this.#fail(new Error('the Redis connection closed')));
  }

  /** Sends one command; resolves with its reply (a string, an integer or null). */
  command(...args: string[]): Promise<string | number | null> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    const parts = [`*${args.length}\r\n`, ...args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`)];
    return new Promise((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.#socket.write(parts.join(''));
    });
  }

  close(): void {
    this.#socket.destroy();
  }

  #onData(data: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, data]);
    for (;;) {
      const lineEnd = this.#buffer.indexOf('\r\n');
      if (lineEnd < 0) return;
      const type = String.fromCharCode(this.#buffer[0]!);
      const line = this.#buffer.subarray(1, lineEnd).toString('utf8');
      let reply: string | number | null | Error;
      let used = lineEnd + 2;
      if (type === '$' || type === '*') {
        const length = Number(line);
        if (length < 0) reply = null;
        else if (type === '*') reply = new Error('array replies are not supported');
        else {
          if (this.#buffer.length < used + length + 2) return;
          reply = this.#buffer.subarray(used, used + length).toString('utf8');
          used += length + 2;
        }
      } else if (type === ':') reply = Number(line);
      else if (type === '+') reply = line;
      else reply = new Error(`Redis: ${line}`);
      this.#buffer = this.#buffer.subarray(used);
      const next = this.#pending.shift();
      if (reply instanceof Error) next?.reject(reply);
      else next?.resolve(reply);
    }
  }

  #fail(err: Error): void {
    this.#failure ??= err;
    for (const p of this.#pending.splice(0)) p.reject(err);
  }
}
