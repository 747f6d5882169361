import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@weir/cli';
import { repoRoot } from '../src/index.ts';

/*
 * Issue 26, as a new user would: Weir's packages packed into tarballs, a project written by
 * `weir init` in a directory outside the repository (no workspace above it), `npm install`
 * of the tarballs (their npm dependencies from the registry), its own `npm test` (the
 * operator harness and a MiniCluster of real processes), `tsc --noEmit`, a type error named
 * by `weir run --typecheck`, then the job run by the installed `weir` against a `weir
 * cluster start` cluster, and its output checked; last, the same job built against an
 * incompatible @weir/api major is refused.
 */

interface Run {
  readonly code: number | null;
  readonly output: string;
}

/** Runs a command to its end; stdout and stderr together. */
// INIT_CWD as npm and npx set it in the user's project: `weir` resolves the job's path against it, and the one inherited from `pnpm test` names the repository.
function run(command: string, args: readonly string[], cwd: string, timeoutMs = 300_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, INIT_CWD: cwd, npm_config_update_notifier: 'false', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function expectSuccess(result: Run, what: string): void {
  expect(result.code, `${what} failed:\n${result.output.slice(-4000)}`).toBe(0);
}

describe('a project outside the repository, from the packed tarballs', () => {
  const root = mkdtempSync(join(tmpdir(), 'weir-user-'));
  const tarballs = join(root, 'tarballs');
  const project = join(root, 'sensors');
  const weirBin = join(project, 'node_modules', 'weir', 'packages', 'cli', 'bin', 'weir.js');
  let cluster: ReturnType<typeof spawn> | undefined;
  /** The RPC port of the `weir cluster start` cluster, once up. */
  let rpc: number | undefined;

  beforeAll(async () => {
    expectSuccess(await run(process.execPath, [join(repoRoot, 'scripts', 'pack.mjs'), '--out', tarballs], repoRoot), 'pnpm pack:all');
    expect(readdirSync(tarballs).sort()).toEqual(['create-weir-0.1.0.tgz', 'weir-0.1.0.tgz', 'weir-api-0.1.0.tgz', 'weir-common-0.1.0.tgz', 'weir-connectors-0.1.0.tgz', 'weir-testing-0.1.0.tgz']);
    expectSuccess(await run(process.execPath, [join(repoRoot, 'packages', 'cli', 'bin', 'weir.js'), 'init', project, '--tarballs', tarballs], root), 'weir init');
    expectSuccess(await run('npm', ['install', '--no-audit', '--no-fund'], project), 'npm install');
  }, 900_000);

  afterAll(async () => {
    if (cluster?.pid !== undefined && cluster.exitCode === null) {
      cluster.kill('SIGINT');
      await new Promise((resolve) => cluster!.once('exit', resolve));
    }
    rmSync(root, { recursive: true, force: true });
  });

  it("passes its own tests (the operator harness, a MiniCluster) and tsc --noEmit", async () => {
    const test = await run('npm', ['test'], project);
    expectSuccess(test, 'npm test');
    expect(test.output).toMatch(/# pass 2\n# fail 0/);
    expectSuccess(await run('npx', ['tsc', '--noEmit'], project), 'tsc --noEmit');
  }, 600_000);

  it('weir run --typecheck names the file, line and column of a type error and submits nothing', async () => {
    const pipeline = join(project, 'src', 'pipeline.ts');
    const original = readFileSync(pipeline, 'utf8');
    const lines = original.split('\n');
    const at = lines.findIndex((l) => l.includes('this.#count.update(n);'));
    lines[at] = lines[at]!.replace('update(n)', 'update(String(n))');
    writeFileSync(pipeline, lines.join('\n'));
    try {
      // No cluster listens at this address: the check comes first.
      const result = await run(process.execPath, [weirBin, 'run', '--typecheck', '-m', `127.0.0.1:${await freePort()}`, 'src/job.ts', '--', 'data/readings.csv', 'out'], project);
      expect(result.code).toBe(1);
      expect(result.output).toContain(`src/pipeline.ts:${at + 1}:`);
      expect(result.output).toContain("error TS2345: Argument of type 'string' is not assignable to parameter of type 'number'");
      expect(result.output).toContain('nothing was submitted');
    } finally {
      writeFileSync(pipeline, original);
    }
  }, 300_000);

  it('weir run submits the job to a weir cluster start cluster, which writes its windows', async () => {
    const [rpcPort, restPort] = [await freePort(), await freePort()];
    cluster = spawn(process.execPath, [weirBin, 'cluster', 'start', '--taskmanagers', '2', '--slots', '2', '--dir', join(root, 'cluster'), '-D', `jobmanager.rpc.port=${rpcPort}`, '-D', `rest.port=${restPort}`, '-D', 'taskmanager.host=127.0.0.1'], {
      cwd: project,
      env: { ...process.env, INIT_CWD: project },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer): void => {
        log += d.toString();
        if (log.includes('JobManager is up')) resolve();
      };
      cluster!.stdout!.on('data', onData);
      cluster!.stderr!.on('data', onData);
      cluster!.once('exit', (code) => reject(new Error(`weir cluster start exited ${code}:\n${log.slice(-3000)}`)));
    });
    // The installed bin through npx, as a user types it.
    const result = await run('npx', ['weir', 'run', '--typecheck', '-m', `127.0.0.1:${rpcPort}`, 'src/job.ts', '--', 'data/readings.csv', 'out'], project);
    expectSuccess(result, 'npx weir run');
    expect(result.output).toMatch(/Job \w+ has finished/);
    const written = readdirSync(join(project, 'out')).flatMap((f) => readFileSync(join(project, 'out', f), 'utf8').split('\n')).filter((l) => l !== '');
    expect(written.sort()).toEqual(['a 0 max=25 last=2', 'a 10000 max=21 last=3', 'b 0 max=30 last=1']);
    rpc = rpcPort;
  }, 300_000);

  it('the cluster refuses the job built against an incompatible @weir/api major, saying what to do', async () => {
    expect(rpc, 'the cluster of the test before').toBeDefined();
    // What `npm install @weir/api@9` would leave: `weir run` records the version the project installed.
    const manifest = join(project, 'node_modules', '@weir', 'api', 'package.json');
    const original = readFileSync(manifest, 'utf8');
    writeFileSync(manifest, JSON.stringify({ ...(JSON.parse(original) as object), version: '9.0.0' }));
    try {
      const result = await run(process.execPath, [weirBin, 'run', '-m', `127.0.0.1:${rpc}`, 'src/job.ts', '--', 'data/readings.csv', 'out-9'], project);
      expect(result.code, result.output).not.toBe(0);
      expect(result.output).toContain('was built against @weir/api 9.0.0, but this cluster runs @weir/api 0.1.0');
    } finally {
      writeFileSync(manifest, original);
    }
  }, 300_000);
});
