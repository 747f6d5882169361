import { isWeirError } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { decodeCheckpointOptions, encodeCheckpointOptions } from './checkpoint-options.ts';

describe('CheckpointOptions on the wire', () => {
  it('reads unset or empty options as a plain checkpoint', () => {
    expect(decodeCheckpointOptions(null)).toEqual({ type: 'checkpoint' });
    expect(decodeCheckpointOptions({ type: '', terminate: '', targetLocation: '' })).toEqual({ type: 'checkpoint' });
  });

  it('reads savepoints with their terminate mode and target, and writes them back', () => {
    const message = { type: 'SAVEPOINT', terminate: 'DRAIN', targetLocation: 's3://b/sp-1' };
    const options = decodeCheckpointOptions(message);
    expect(options).toEqual({ type: 'savepoint', terminate: 'drain', targetLocation: 's3://b/sp-1' });
    expect(encodeCheckpointOptions(options)).toEqual(message);
    expect(decodeCheckpointOptions({ type: 'SAVEPOINT', terminate: 'SUSPEND', targetLocation: '/sp' })).toEqual({ type: 'savepoint', terminate: 'suspend', targetLocation: '/sp' });
  });

  it('rejects an unknown type or terminate, and terminate on a checkpoint, with INVALID_CHECKPOINT_OPTIONS', () => {
    for (const [message, text] of [
      [{ type: 'SNAPSHOT', terminate: '', targetLocation: '' }, 'type "SNAPSHOT"; it must be CHECKPOINT or SAVEPOINT'],
      [{ type: 'SAVEPOINT', terminate: 'STOP', targetLocation: '' }, 'terminate "STOP"; it must be empty, SUSPEND or DRAIN'],
      [{ type: 'CHECKPOINT', terminate: 'DRAIN', targetLocation: '' }, 'terminate DRAIN on a CHECKPOINT; only a savepoint may end the job'],
    ] as const) {
      let error: unknown;
      try {
        decodeCheckpointOptions(message);
      } catch (err) {
        error = err;
      }
      expect(isWeirError(error, 'INVALID_CHECKPOINT_OPTIONS')).toBe(true);
      expect((error as Error).message).toBe(`checkpoint options with ${text}`);
    }
  });
});
