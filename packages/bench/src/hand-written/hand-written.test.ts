import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Consumer } from './consumer.ts';
import { FrameReader } from './frames.ts';
import { produce } from './producer.ts';
import { checkCounts } from './records.ts';

describe('the hand-written shuffle', () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const s of sockets) s.destroy();
    for (const s of servers) s.close();
  });

  it('counts every key exactly over two producers and two consumers on loopback TCP', async () => {
    const records = 50_001;
    const keys = 97;
    const consumers = [new Consumer(2), new Consumer(2)];
    const ports = await Promise.all(
      consumers.map(async (consumer) => {
        const server = createServer((socket) => consumer.attach(socket)).listen(0, '127.0.0.1');
        servers.push(server);
        await once(server, 'listening');
        return (server.address() as { port: number }).port;
      }),
    );
    const connectAll = (): Promise<Socket[]> =>
      Promise.all(
        ports.map(async (port) => {
          const socket = connect(port, '127.0.0.1');
          sockets.push(socket);
          await once(socket, 'connect');
          return socket;
        }),
      );
    const [first, second] = [await connectAll(), await connectAll()];
    await Promise.all([produce(first, 0, 2, records, keys), produce(second, 1, 2, records, keys)]);
    await Promise.all(consumers.map((c) => c.done));
    const counts = consumers.map((c) => [...c.counts]);
    expect(counts.every((c) => c.length > 0)).toBe(true);
    expect(() => checkCounts(counts, records, keys)).not.toThrow();
  });

  it('names a wrong, missing or foreign key', () => {
    expect(() => checkCounts([[['user-0', 2]], [['user-1', 1]]], 4, 2)).toThrow('counted 1 records of user-1, expected 2');
    expect(() => checkCounts([[['user-0', 2]]], 4, 2)).toThrow('counted 0 records of user-1, expected 2');
    expect(() => checkCounts([[['user-0', 1], ['user-1', 1], ['user-9', 1]]], 2, 2)).toThrow('never produced: user-9');
    expect(() => checkCounts([[['user-0', 1]], [['user-0', 1]]], 1, 1)).toThrow('key user-0 in two consumers');
  });

  it('reads frames split anywhere across chunks', () => {
    const frames: string[] = [];
    let ended = false;
    const reader = new FrameReader(
      (payload) => frames.push(payload.toString()),
      () => (ended = true),
    );
    const frame = (text: string): Buffer => {
      const header = Buffer.alloc(4);
      header.writeUInt32LE(text.length);
      return Buffer.concat([header, Buffer.from(text)]);
    };
    const stream = Buffer.concat([frame('alpha'), frame('be'), frame('gamma!'), Buffer.alloc(4)]);
    for (let i = 0; i < stream.length; i += 3) reader.push(stream.subarray(i, i + 3));
    expect(frames).toEqual(['alpha', 'be', 'gamma!']);
    expect(ended).toBe(true);
  });
});
