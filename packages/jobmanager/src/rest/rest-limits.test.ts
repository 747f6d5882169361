import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { restCluster } from '../testing/rest-cluster.ts';

const apps: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function listening(limits: { maxContentLength: number; requestTimeoutMs: number; maxConnections: number }): Promise<number> {
  const { app } = restCluster({}, undefined, { limits });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as { port: number }).port;
}

/** Connects, writes `head`, and resolves with what the server sent until it closed the connection. */
function exchange(port: number, head: string): { socket: Socket; answer: Promise<{ text: string; closedAtMs: number }> } {
  const socket = connect({ host: '127.0.0.1', port });
  socket.write(head);
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString()));
  const answer = new Promise<{ text: string; closedAtMs: number }>((resolve) => {
    socket.on('close', () => resolve({ text, closedAtMs: Date.now() }));
    socket.on('error', () => undefined);
  });
  return { socket, answer };
}

describe('REST limits', () => {
  it('answers 413 at once for a Content-Length past rest.server.max-content-length, without waiting for the body', async () => {
    const port = await listening({ maxContentLength: 1_024, requestTimeoutMs: 60_000, maxConnections: 10 });
    const started = Date.now();
    const { socket, answer } = exchange(port, 'POST /jobs/x/savepoints HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{');
    const first = await new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(chunk.toString())));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(first).toMatch(/^HTTP\/1\.1 413 /);
    expect(first).toContain('"code":"REQUEST_TOO_LARGE"');
    expect(first).toContain('the request body is larger than the 1024 bytes this REST API takes (rest.server.max-content-length)');
    socket.destroy();
    await answer;
  });

  it('closes a connection whose body does not arrive within rest.server.request-timeout', async () => {
    const port = await listening({ maxContentLength: 1_024, requestTimeoutMs: 1_000, maxConnections: 10 });
    const started = Date.now();
    const { socket, answer } = exchange(port, 'POST /jobs/x/savepoints HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    // One byte every 300 ms: never idle long enough for an idle timeout, only the request timeout ends it.
    const drip = setInterval(() => socket.write(' '), 300);
    const { closedAtMs } = await answer;
    clearInterval(drip);
    expect(closedAtMs - started).toBeGreaterThanOrEqual(1_000);
    expect(closedAtMs - started).toBeLessThan(5_000);
  });

  it('closes connections past rest.server.max-connections as they come', async () => {
    const port = await listening({ maxContentLength: 1_024, requestTimeoutMs: 60_000, maxConnections: 2 });
    const held = [exchange(port, 'GET /overview HTTP/1.1\r\nHost: x\r\n'), exchange(port, 'GET /overview HTTP/1.1\r\nHost: x\r\n')];
    await new Promise((r) => setTimeout(r, 200));
    const third = exchange(port, 'GET /overview HTTP/1.1\r\nHost: x\r\n\r\n');
    const { text } = await third.answer;
    expect(text).toBe('');
    for (const { socket } of held) socket.destroy();
  });
});
