import { isWeirError } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { decodeCheckpointOptions, encodeCheckpointOptions } from './checkpoint-options.ts';

describe('CheckpointOptions on the wire', () => {
  it('reads unset or empty options as a plain checkpoint', () => {
    expect(decodeCheckpointOptions(null)).toEqual({ type: 'checkpoint' });
    expect(decodeCheckpointOptions({ type: '', terminate: '', targetLocation: '', full: false })).toEqual({ type: 'checkpoint' });
  });

  it('reads savepoints with their terminate mode and target, and writes them back', () => {
    const message = { type: 'SAVEPOINT', terminate: 'DRAIN', targetLocation: 's3://b/sp-1', full: false };
    const options = decodeCheckpointOptions(message);
    expect(options).toEqual({ type: 'savepoint', terminate: 'drain', targetLocation: 's3://b/sp-1' });
    expect(encodeCheckpointOptions(options)).toEqual(message);
    expect(decodeCheckpointOptions({ type: 'SAVEPOINT', terminate: 'SUSPEND', targetLocation: '/sp', full: false })).toEqual({ type: 'savepoint', terminate: 'suspend', targetLocation: '/sp' });
  });

  it('carries an on-demand FULL checkpoint; a plain one stays unset', () => {
    const message = encodeCheckpointOptions({ type: 'checkpoint', full: true });
    expect(message).toEqual({ type: 'CHECKPOINT', terminate: '', targetLocation: '', full: true });
    expect(decodeCheckpointOptions({ type: 'CHECKPOINT', terminate: '', targetLocation: '', full: true })).toEqual({ type: 'checkpoint', full: true });
    expect(encodeCheckpointOptions({ type: 'checkpoint', full: false })).toBeUndefined();
    expect(() => decodeCheckpointOptions({ type: 'SAVEPOINT', terminate: '', targetLocation: '/sp', full: true })).toThrow('full on a SAVEPOINT');
  });

  it('rejects an unknown type or terminate, and terminate on a checkpoint, with INVALID_CHECKPOINT_OPTIONS', () => {
    for (const [message, text] of [
      [{ type: 'SNAPSHOT', terminate: '', targetLocation: '', full: false }, 'type "SNAPSHOT"; it must be CHECKPOINT or SAVEPOINT'],
      [{ type: 'SAVEPOINT', terminate: 'STOP', targetLocation: '', full: false }, 'terminate "STOP"; it must be empty, SUSPEND or DRAIN'],
      [{ type: 'CHECKPOINT', terminate: 'DRAIN', targetLocation: '', full: false }, 'terminate DRAIN on a CHECKPOINT; only a savepoint may end the job'],
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
