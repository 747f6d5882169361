// A process of the hand-written shuffle, started and driven over IPC by runHandWrittenShuffle:
//   consumer <producers>: listens on a free port, reports it, counts until every producer
//     ended, reports the counts;
//   producer <index> <producers> <records> <keys> <port>…: connects to every consumer, reports
//     it, produces on 'start', reports when its sockets are flushed and exits.
// Both report the CPU time their process (every thread) used from then on to their last report.
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { Consumer } from './consumer.ts';
import { produce } from './producer.ts';

export type WorkerMessage =
  | { readonly kind: 'listening'; readonly port: number }
  | { readonly kind: 'counted'; readonly counts: Array<[string, number]>; readonly cpuMicros: number }
  | { readonly kind: 'connected' }
  | { readonly kind: 'produced'; readonly cpuMicros: number };

function report(message: WorkerMessage): void {
  process.send!(message);
}

/** User and system CPU time of this process since `since`, in microseconds. */
function cpuMicrosSince(since: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(since);
  return user + system;
}

async function runConsumer(producers: number): Promise<void> {
  const consumer = new Consumer(producers);
  const server = createServer((socket) => consumer.attach(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  report({ kind: 'listening', port: (server.address() as { port: number }).port });
  const idle = process.cpuUsage();
  await consumer.done;
  const cpuMicros = cpuMicrosSince(idle);
  report({ kind: 'counted', counts: [...consumer.counts], cpuMicros });
  server.close();
  process.disconnect();
}

async function runProducer(index: number, producers: number, records: number, keys: number, ports: number[]): Promise<void> {
  const sockets: Socket[] = await Promise.all(
    ports.map(async (port) => {
      const socket = connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      await once(socket, 'connect');
      return socket;
    }),
  );
  const start = once(process, 'message');
  report({ kind: 'connected' });
  const idle = process.cpuUsage();
  await start;
  await produce(sockets, index, producers, records, keys);
  report({ kind: 'produced', cpuMicros: cpuMicrosSince(idle) });
  process.disconnect();
}

const [role, ...args] = process.argv.slice(2);
const numbers = args.map(Number);
if (role === 'consumer') await runConsumer(numbers[0]!);
else if (role === 'producer') await runProducer(numbers[0]!, numbers[1]!, numbers[2]!, numbers[3]!, numbers.slice(4));
else throw new Error(`unknown role ${role}; expected consumer or producer`);
