import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadJobBundle, WeirError } from '@weir/common';
import { describe, expect, it } from 'vitest';
import { bundleJob } from './bundle.ts';

function jobDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'weir-bundle-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function bundleError(path: string): Promise<WeirError> {
  try {
    await bundleJob(path);
  } catch (err) {
    expect(err).toBeInstanceOf(WeirError);
    return err as WeirError;
  }
  throw new Error('bundleJob did not throw');
}

describe('bundleJob', () => {
  it('bundles a TypeScript job outside the repo into CommonJS with @weir/* left external', async () => {
    const dir = jobDir({
      'my-job.ts': `
        import { Types, type StreamExecutionEnvironment } from '@weir/api';
        import { PrintSink } from '@weir/connectors';
        import { basename } from 'node:path';
        import { shout } from './helper.ts';
        export default function job(env: StreamExecutionEnvironment, args: string[]): void {
          (env as unknown as { built: string[] }).built = [shout(args[0]!), basename('/a/b.txt'), new PrintSink().kind, Types.STRING.name];
        }`,
      'helper.ts': `export const shout = (text: string): string => text.toUpperCase() + '!';`,
    });
    const bundle = await bundleJob(join(dir, 'my-job.ts'));
    expect(bundle.entryName).toBe('my-job.ts');
    expect(bundle.code).toContain('require("@weir/api")');
    expect(bundle.code).toContain('require("@weir/connectors")');
    expect(bundle.code).toContain('//# sourceMappingURL=data:application/json;base64,');
    expect(bundle.code).not.toMatch(/^\s*(import|export)\s/m);

    class PrintSink {
      readonly kind = 'print';
    }
    const main = loadJobBundle<{ built?: string[] }>(bundle.code, bundle.entryName, {
      '@weir/api': { Types: { STRING: { name: 'STRING' } } },
      '@weir/connectors': { PrintSink },
    });
    const env: { built?: string[] } = {};
    await main(env, ['hello']);
    expect(env.built).toEqual(['HELLO!', 'b.txt', 'print', 'STRING']);
  });

  it('rejects a job file that does not exist', async () => {
    const path = join(tmpdir(), 'weir-no-such-job', 'job.ts');
    const error = await bundleError(path);
    expect(error.code).toBe('JOB_FILE_NOT_FOUND');
    expect(error.message).toBe(`job file ${path} does not exist; pass the path of a .ts or .js job module`);
  });

  it('reports a syntax error with its location', async () => {
    const dir = jobDir({ 'broken.ts': 'export default function job(env) {\n  env.fromSource(\n}\n' });
    const error = await bundleError(join(dir, 'broken.ts'));
    expect(error.code).toBe('BUNDLE_FAILED');
    expect(error.message).toMatch(new RegExp(`^cannot bundle job ${join(dir, 'broken.ts')}: broken\\.ts:3:1: `));
  });

  it('explains an import that cannot be resolved', async () => {
    const dir = jobDir({ 'job.ts': "import leftPad from 'left-pad';\nexport default function job() { leftPad(); }\n" });
    const error = await bundleError(join(dir, 'job.ts'));
    expect(error.code).toBe('BUNDLE_FAILED');
    expect(error.message).toBe(
      `cannot bundle job ${join(dir, 'job.ts')}: job.ts:1:21: Could not resolve "left-pad" (a job may import @weir/api, @weir/connectors, @weir/sql, Node built-ins and packages in a node_modules beside it)`,
    );
  });
});
