import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEIR_API_VERSION } from '@weir/api';
import { describe, expect, it } from 'vitest';
import { bundleJob } from '../bundle.ts';
import { initProject } from './init-project.ts';

const newDir = () => join(mkdtempSync(join(tmpdir(), 'weir-init-')), 'my-job');

describe('weir init', () => {
  it('writes a project whose package.json has the scripts and the Weir packages a cluster of this version accepts', () => {
    const dir = newDir();
    const files = initProject({ dir });
    expect(files).toEqual(expect.arrayContaining(['package.json', 'tsconfig.json', 'src/job.ts', 'src/pipeline.ts', 'test/job.test.ts', '.gitignore', 'README.md']));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.scripts).sort()).toEqual(['build', 'run', 'test']);
    // ^0.1.0 is >=0.1.0 <0.2.0: for 0.x the same minor, as the JobManager's API version check.
    expect(manifest.dependencies).toEqual({ '@weir/api': `^${WEIR_API_VERSION}`, '@weir/connectors': `^${WEIR_API_VERSION}` });
    expect(manifest.devDependencies).toMatchObject({ '@weir/testing': `^${WEIR_API_VERSION}`, weir: `^${WEIR_API_VERSION}` });
  });

  it('points the dependencies at the tarballs of --tarballs, relative to the project', () => {
    const tarballs = mkdtempSync(join(tmpdir(), 'weir-tarballs-'));
    for (const name of ['weir-api', 'weir-connectors', 'weir-testing', 'weir', 'weir-common']) writeFileSync(join(tarballs, `${name}-${WEIR_API_VERSION}.tgz`), '');
    const dir = newDir();
    initProject({ dir, tarballs });
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(manifest.dependencies['@weir/api']).toMatch(new RegExp(`^file:\\.\\./\\.\\./weir-tarballs-\\w+/weir-api-${WEIR_API_VERSION}\\.tgz$`));
    expect(manifest.devDependencies.weir).toMatch(new RegExp(`/weir-${WEIR_API_VERSION}\\.tgz$`));
  });

  it('refuses a directory with files in it', () => {
    const dir = newDir();
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    expect(() => initProject({ dir })).toThrow(expect.objectContaining({ code: 'INIT_TARGET_NOT_EMPTY' }));
  });

  it("writes a job that bundles, recording the @weir/api version it was built against", async () => {
    const dir = newDir();
    initProject({ dir });
    const bundle = await bundleJob(join(dir, 'src', 'job.ts'));
    expect(bundle.code.startsWith(`/* weir-api-version: ${WEIR_API_VERSION} */`)).toBe(true);
    expect(bundle.apiVersion).toBe(WEIR_API_VERSION);
  });

  it('records the version of the @weir/api installed beside the job', async () => {
    const dir = newDir();
    initProject({ dir });
    mkdirSync(join(dir, 'node_modules', '@weir', 'api'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', '@weir', 'api', 'package.json'), JSON.stringify({ name: '@weir/api', version: '9.1.0', exports: { './package.json': './package.json' } }));
    const bundle = await bundleJob(join(dir, 'src', 'job.ts'));
    expect(bundle.apiVersion).toBe('9.1.0');
  });
});
