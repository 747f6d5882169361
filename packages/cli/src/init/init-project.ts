import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { WEIR_API_VERSION } from '@weir/api';
import { WeirError } from '@weir/common';
import { CliErrorCode } from '../errors.ts';
import { JOB_TS, PIPELINE_TS, TEST_JOB_TS, TEST_TS } from './example-job.ts';

/** The tools the example project builds and tests with, at the versions Weir is built with. */
const DEV_DEPENDENCIES = { '@types/node': '20.19.43', tsx: '4.23.15', typescript: '5.9.3' };
/** The Weir packages a project depends on. */
const WEIR_PACKAGES = ['@weir/api', '@weir/connectors', '@weir/testing', 'weir'];
/**
 * Installed from tarballs, the packages those depend on must be named too: npm resolves a
 * tarball's dependencies on the registry, unless the project names them itself.
 */
const INDIRECT_PACKAGES = ['@weir/common'];

export interface InitArgs {
  readonly dir: string;
  /** A directory of Weir's tarballs (`pnpm pack:all`): the dependencies point at them (file:) instead of the registry's versions. */
  readonly tarballs?: string;
}

/**
 * `weir init <dir>`: a project that builds, tests and runs a Weir job, as Flink's
 * quickstart archetype: package.json (scripts build, test, run), tsconfig.json, the example
 * job (a file in, keyed state, an event-time window, a file sink), its test (the operator
 * harness and a MiniCluster), .gitignore, README.md and sample input. Refuses a directory with
 * files in it. Resolves with the files written, relative to `dir`.
 */
export function initProject(args: InitArgs): string[] {
  const dir = resolve(args.dir);
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new WeirError(CliErrorCode.INIT_TARGET_NOT_EMPTY, `weir init writes a new project, and ${dir} is not empty: name a new or empty directory`);
  }
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify(packageJson(basename(dir), weirDependencies(dir, args.tarballs)), null, 2)}\n`,
    'tsconfig.json': `${JSON.stringify(TSCONFIG, null, 2)}\n`,
    'src/pipeline.ts': PIPELINE_TS,
    'src/job.ts': JOB_TS,
    'test/pipeline-job.ts': TEST_JOB_TS,
    'test/job.test.ts': TEST_TS,
    'data/readings.csv': 'a,1000,20\nb,2000,30\na,9000,25\na,12000,21\n',
    '.gitignore': 'node_modules/\nout/\n*.tgz\n',
    'README.md': readme(basename(dir)),
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return Object.keys(files);
}

/**
 * Without `--tarballs`: the registry's versions a cluster of this CLI accepts, `^<version>`:
 * the same major version, and for 0.x the same minor, which is exactly what the JobManager's
 * API version check allows (INCOMPATIBLE_API_VERSION otherwise), while patch releases still
 * install. With it: file: paths of the tarballs (relative to the project).
 */
export function weirDependencies(dir: string, tarballs: string | undefined): Record<string, string> {
  if (tarballs === undefined) return Object.fromEntries(WEIR_PACKAGES.map((name) => [name, `^${WEIR_API_VERSION}`]));
  const found = readdirSync(resolve(tarballs)).filter((f) => f.endsWith('.tgz'));
  return Object.fromEntries([...WEIR_PACKAGES, ...INDIRECT_PACKAGES].map((name) => {
    const prefix = `${name.replace('@', '').replace('/', '-')}-`;
    const tarball = found.find((f) => f.startsWith(prefix) && /^\d/.test(f.slice(prefix.length)));
    if (tarball === undefined) throw new WeirError(CliErrorCode.BAD_ARGUMENT, `--tarballs ${tarballs} has no ${prefix}<version>.tgz: run pnpm pack:all in Weir's repository first`);
    return [name, `file:${relative(dir, join(resolve(tarballs), tarball))}`];
  }));
}

function packageJson(name: string, weir: Record<string, string>): object {
  const { weir: cli, ...libraries } = weir;
  const { '@weir/testing': testing, ...runtime } = libraries;
  return {
    name: name.toLowerCase().replace(/[^a-z0-9-]/g, '-'),
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      build: 'tsc',
      test: 'node --import tsx --test test/job.test.ts',
      run: 'weir run --typecheck src/job.ts -- data/readings.csv out',
    },
    dependencies: runtime,
    devDependencies: { '@weir/testing': testing, weir: cli, ...DEV_DEPENDENCIES },
  };
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    types: ['node'],
  },
  include: ['src', 'test'],
};

function readme(name: string): string {
  return `# ${name}

A Weir job: sensor readings from a file, numbered per sensor (keyed state), summarized per 10 s
event-time window, written to a directory.

- \`src/pipeline.ts\`: the logic; \`src/job.ts\`: the job (file source and sink around it).
- \`test/job.test.ts\`: a test of the keyed function with the operator test harness, and of the
  whole pipeline on a MiniCluster (\`test/pipeline-job.ts\`, a CollectSink) — \`npm test\`.
- \`npm run build\`: type-checks (tsc).
- \`npm run run\`: submits the job to the cluster at localhost:6123 (start one with
  \`npx weir cluster start\` in another terminal); the summaries land in \`out/\`.
  \`weir run --typecheck\` type-checks first and names each error's file:line:column.
`;
}
