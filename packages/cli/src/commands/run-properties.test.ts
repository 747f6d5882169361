import { describe, expect, it } from 'vitest';
import { splitRunProperties } from './run-properties.ts';

describe('weir run -D', () => {
  it("sends job keys to the job and keeps connection keys for the client", () => {
    expect(
      splitRunProperties({
        'execution.checkpointing.interval': '1s',
        'restart-strategy.type': 'fixed-delay',
        'state.backend': 'level',
        'jobmanager.rpc.port': '7000',
        'high-availability.type': 'etcd',
      }),
    ).toEqual({
      job: { 'execution.checkpointing.interval': '1s', 'restart-strategy.type': 'fixed-delay', 'state.backend': 'level' },
      client: { 'jobmanager.rpc.port': '7000', 'high-availability.type': 'etcd' },
    });
  });

  it('refuses a key of the cluster\'s processes, saying which keys it takes', () => {
    expect(() => splitRunProperties({ 'taskmanager.numberOfTaskSlots': '4' })).toThrow(
      /^weir run -D taskmanager.numberOfTaskSlots=4: taskmanager.numberOfTaskSlots cannot apply to a job; weir run -D takes the job's keys \(execution.checkpointing.\*, restart-strategy.\*, parallelism.default/,
    );
  });
});
