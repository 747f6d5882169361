import { describe, expect, it } from 'vitest';
import { isWeirError } from '../errors.ts';
import { jobConfiguration } from './job-configuration.ts';
import { defaultConfig } from './options.ts';

describe('jobConfiguration', () => {
  it("puts a job's own keys over the cluster's, parsed by their types", () => {
    const config = jobConfiguration(defaultConfig(), {
      'execution.checkpointing.interval': '1s',
      'restart-strategy.type': 'fixed-delay',
      'restart-strategy.fixed-delay.attempts': '5',
      'parallelism.default': '3',
    });
    expect(config['execution.checkpointing.interval']).toBe(1_000);
    expect(config['restart-strategy.type']).toBe('fixed-delay');
    expect(config['restart-strategy.fixed-delay.attempts']).toBe(5);
    expect(config['parallelism.default']).toBe(3);
    expect(config['rest.port']).toBe(defaultConfig()['rest.port']);
  });

  it('refuses a key of the cluster\'s processes, naming it and the keys a job takes', () => {
    expect(() => jobConfiguration(defaultConfig(), { 'state.checkpoints.dir': '/etc' })).toThrow(/config key state.checkpoints.dir .* cannot apply to one job/);
    const refused = () => jobConfiguration(defaultConfig(), { 'taskmanager.numberOfTaskSlots': '4' });
    expect(refused).toThrow(/config key taskmanager.numberOfTaskSlots \(from the job's -D taskmanager.numberOfTaskSlots=4\) cannot apply to one job: .*execution.checkpointing.\*, restart-strategy.\*/);
  });

  it('refuses an unknown key with a suggestion and a bad value with what it accepts', () => {
    let caught: unknown;
    try {
      jobConfiguration(defaultConfig(), { 'execution.checkpointing.intervall': '1s' });
    } catch (err) {
      caught = err;
    }
    expect(isWeirError(caught, 'INVALID_CONFIG')).toBe(true);
    expect((caught as Error).message).toMatch(/did you mean execution.checkpointing.interval\?/);
    expect(() => jobConfiguration(defaultConfig(), { 'execution.checkpointing.interval': 'soon' })).toThrow(/invalid value "soon" for config key execution.checkpointing.interval/);
  });
});
