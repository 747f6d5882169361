import { describe, expect, it } from 'vitest';
import { parseSavepointMode } from './savepoint-mode.ts';
import { resolveSavepointBase, savepointDirName } from './savepoint-target.ts';

describe('savepoint requests', () => {
  it('maps terminate and drain to what happens to the job', () => {
    expect(parseSavepointMode('', false)).toEqual({ kind: 'keep-running' });
    expect(parseSavepointMode('CANCEL', false)).toEqual({ kind: 'cancel' });
    expect(parseSavepointMode('STOP', false)).toEqual({ kind: 'stop', terminate: 'suspend' });
    expect(parseSavepointMode('STOP', true)).toEqual({ kind: 'stop', terminate: 'drain' });
    expect(() => parseSavepointMode('CANCEL', true)).toThrow(`drain only applies to stop-with-savepoint (terminate STOP), not to terminate 'CANCEL'; use \`weir stop --drain\``);
    expect(() => parseSavepointMode('stop', false)).toThrow(`unknown savepoint terminate mode 'stop'; use '' (the job goes on), CANCEL or STOP`);
  });

  it('takes the requested directory over state.savepoints.dir and names each savepoint after its job', () => {
    expect(resolveSavepointBase('/sp/here', '/sp/default')).toBe('/sp/here');
    expect(resolveSavepointBase('', 's3://b/sp')).toBe('s3://b/sp');
    expect(() => resolveSavepointBase(' ', '')).toThrow(/^no savepoint directory/);
    expect(savepointDirName('0123456789abcdef0123456789abcdef', () => 'a1b2c3d4e5f6')).toBe('savepoint-012345-a1b2c3d4e5f6');
    expect(savepointDirName('0123456789abcdef0123456789abcdef')).toMatch(/^savepoint-012345-[0-9a-f]{12}$/);
  });
});
