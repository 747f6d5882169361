import { grpc } from '@weir/rpc';

/** What a call came back with: its status code, details and Weir error code (if any). */
export interface RawAnswer {
  readonly code: grpc.status;
  readonly details: string;
  readonly weirCode: string | undefined;
}

export type CallShape = 'unary' | 'server-stream' | 'bidi';

const identity = (b: Buffer): Buffer => b;

/**
 * Sends `bytes` as the request of `method` (`/weir.v1.JobService/GetJob`, say) without the
 * generated client's encoding, as a hostile or broken client could, and resolves with the
 * status it ends with; a deadline that passes resolves with DEADLINE_EXCEEDED.
 */
export function rawCall(address: string, method: string, shape: CallShape, bytes: Buffer, deadlineMs: number): Promise<RawAnswer> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': -1 });
  const deadline = Date.now() + deadlineMs;
  return new Promise<RawAnswer>((resolve) => {
    const done = (status: { code: grpc.status; details: string; metadata?: grpc.Metadata }): void => {
      client.close();
      resolve({ code: status.code, details: status.details, weirCode: status.metadata?.get('weir-error-code')[0] as string | undefined });
    };
    if (shape === 'unary') {
      client.makeUnaryRequest(method, identity, identity, bytes, { deadline }, (err) => done(err ?? { code: grpc.status.OK, details: '' }));
      return;
    }
    const call =
      shape === 'server-stream'
        ? client.makeServerStreamRequest(method, identity, identity, bytes, { deadline })
        : client.makeBidiStreamRequest(method, identity, identity, { deadline });
    call.on('data', () => {});
    call.on('error', () => {});
    call.on('status', done);
    if (shape === 'bidi') (call as grpc.ClientDuplexStream<Buffer, Buffer>).write(bytes);
  });
}

/** A protobuf message whose only field is an unknown one (number 1000) of `size` bytes: valid, and as large as wanted. */
export function paddedMessage(size: number): Buffer {
  const tag = Buffer.from([0xc2, 0x3e]); // field 1000, wire type 2 (length-delimited)
  const length: number[] = [];
  for (let n = size; ; n = Math.floor(n / 128)) {
    length.push(n >= 128 ? (n % 128) | 0x80 : n);
    if (n < 128) break;
  }
  return Buffer.concat([tag, Buffer.from(length), Buffer.alloc(size, 0x61)]);
}
