import type { Socket } from 'node:net';

/** Frames on a TCP stream: a 4-byte little-endian length, then that many bytes; length 0 ends the stream. */
export const END_FRAME = Buffer.alloc(4);

/** Writes one frame; false when the socket's buffer is full: wait for 'drain' before the next. */
export function writeFrame(socket: Socket, payload: Uint8Array): boolean {
  const header = Buffer.allocUnsafe(4);
  header.writeUInt32LE(payload.byteLength, 0);
  socket.cork();
  socket.write(header);
  const ok = socket.write(payload);
  socket.uncork();
  return ok;
}

/** Cuts a byte stream into frames: `push` every chunk, `onFrame` gets each payload, `onEnd` the end frame. */
export class FrameReader {
  #rest: Buffer | undefined;

  constructor(
    private readonly onFrame: (payload: Buffer) => void,
    private readonly onEnd: () => void,
  ) {}

  push(chunk: Buffer): void {
    const buffer = this.#rest === undefined ? chunk : Buffer.concat([this.#rest, chunk]);
    let offset = 0;
    while (buffer.length - offset >= 4) {
      const length = buffer.readUInt32LE(offset);
      if (length === 0) {
        this.#rest = undefined;
        this.onEnd();
        return;
      }
      if (buffer.length - offset - 4 < length) break;
      this.onFrame(buffer.subarray(offset + 4, offset + 4 + length));
      offset += 4 + length;
    }
    this.#rest = offset === buffer.length ? undefined : buffer.subarray(offset);
  }
}
