import { describe, expect, it } from 'vitest';
import { WeirError } from '@weir/common';
import { isFullCheckpoint } from './checkpoint-type.ts';

describe('isFullCheckpoint (REST checkpointType, gRPC TriggerCheckpoint)', () => {
  it('FULL asks for a full checkpoint; CONFIGURED, INCREMENTAL and none take the job\'s configured kind, as Flink 1.19', () => {
    expect(isFullCheckpoint('FULL')).toBe(true);
    expect(isFullCheckpoint(' full ')).toBe(true);
    for (const type of ['CONFIGURED', 'INCREMENTAL', 'incremental', '', undefined]) expect(isFullCheckpoint(type)).toBe(false);
  });

  it('refuses any other type with INVALID_CHECKPOINT_REQUEST, naming the three', () => {
    let error: unknown;
    try {
      isFullCheckpoint('SAVEPOINT');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(WeirError);
    expect((error as WeirError).code).toBe('INVALID_CHECKPOINT_REQUEST');
    expect((error as WeirError).message).toBe('checkpoint type "SAVEPOINT": it must be FULL, INCREMENTAL or CONFIGURED');
  });
});
