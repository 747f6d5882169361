#!/usr/bin/env node
// `pnpm pack:all [--out <dir>]`: the packages a user's project installs, as npm tarballs:
// @weir/common, @weir/api, @weir/connectors, @weir/testing (ES modules with .d.ts types and an
// `exports` map) and the CLI as `weir` (the `weir` bin, and with it the JobManager and
// TaskManager), and `create-weir` (`npm create weir <dir>`, which runs that `weir init`). Every version is the repository's (root package.json). Prints the tarballs'
// paths, one a line. The layout is publishable as it is: no tarball names another by path.
//
// Libraries (see stageLibrary): each is esbuild-bundled again, with the published @weir/*
// packages left as imports (one instance each in a user's node_modules: a job's
// KeyedProcessFunction is the one the harness checks) and the unpublished ones it uses
// (@weir/runtime and @weir/storage in @weir/testing) bundled in. Types come from one tsc run
// with emitDeclarationOnly over the sources (see emitDeclarations); a published declaration
// that names an unpublished package fails the pack, as a user's tsc would.
//
// `weir` (see stageCli) carries the cluster whole: every workspace package the CLI's compiled
// files import, in the repository's own layout (packages/<name>/dist), so the relative
// imports `pnpm build` writes and the files found beside them (the job worker, the dashboard)
// stay where they were. It brings its own copy of @weir/api: the cluster's, which it lends to
// the jobs it runs (a job bundle leaves @weir/* out) and whose version a submission is checked
// against.
//
// Each tarball's dependencies are what its files import (JavaScript and declarations), with
// the versions the workspace pins.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildAll, bundledDependencies, npmImports, REQUIRE_BANNER } from './build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(root, 'packages');
const rootManifest = readJson(join(root, 'package.json'));
export const version = rootManifest.version;

/** Library packages by directory; their workspace names are their published names. */
const LIBRARIES = ['common', 'api', 'connectors', 'testing'];
/** Workspace name -> published name of every published package. */
const PUBLISHED = new Map([...LIBRARIES.map((dir) => [`@weir/${dir}`, `@weir/${dir}`]), ['@weir/cli', 'weir']]);
/** Loaded from the user's project when a command needs it (`weir run --typecheck`), not installed with weir. */
const OPTIONAL_PEERS = ['typescript'];
/** Imports esbuild leaves in a bundle that never run in Weir (build.mjs `lazy`: grpc-js's channelz and ORCA). */
const NEVER_LOADED = Object.values(bundledDependencies).flatMap((b) => b.lazy);
/** What every tarball's package.json says besides its own fields. */
const COMMON_FIELDS = { version, type: 'module', license: 'Apache-2.0', engines: { node: '>=20' } };

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** npm package -> the version the workspace pins (every package.json of the repository agrees on one). */
function pinnedVersions() {
  const pins = new Map(Object.entries(rootManifest.devDependencies ?? {}));
  for (const dir of readdirSync(packagesDir)) {
    const file = join(packagesDir, dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = readJson(file);
    for (const [name, range] of Object.entries({ ...manifest.devDependencies, ...manifest.dependencies })) {
      if (!range.startsWith('workspace:')) pins.set(name, range);
    }
  }
  return pins;
}

/** A bare specifier: an npm package name, maybe with a subpath (not a path, not text of a template). */
const NPM_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*(\/[\w./-]*)?$/;

/** The npm packages `code` imports (static, dynamic, require), by package name. */
export function bareImports(code) {
  const names = new Set();
  // Static and dynamic imports, require and the functions createRequire made (`require2("avsc")`, `createRequire(url)("yaml")`).
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\b\w*[rR]equire\w*\s*\(\s*|\bcreateRequire\w*\([^)]*\)\s*\(\s*)["']([^"'\s]+)["']/g;
  for (const [, specifier] of code.matchAll(pattern)) {
    if (!NPM_NAME.test(specifier) || isBuiltin(specifier)) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

/** Every file below `dir` whose name passes `keep`. */
function filesBelow(dir, keep = () => true) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile() && keep(path));
}

/** The dependencies map of a tarball whose files import `names`: published @weir/* at this version, npm packages as pinned. */
function dependenciesOf(names, self, pins) {
  const dependencies = {};
  for (const name of [...names].sort()) {
    if (name === self || OPTIONAL_PEERS.includes(name) || NEVER_LOADED.includes(name)) continue;
    if (PUBLISHED.has(name)) dependencies[PUBLISHED.get(name)] = version;
    else if ([...PUBLISHED.values()].includes(name)) dependencies[name] = version;
    else if (name.startsWith('@weir/')) throw new Error(`${self} imports ${name}, which is neither published nor bundled`);
    else if (pins.has(name)) dependencies[name] = pins.get(name);
    else throw new Error(`${self} imports ${name}, which no package.json of the workspace pins`);
  }
  return dependencies;
}

/**
 * Declarations of every library's sources (and of what they import), one tsc program:
 * `<out>/<package dir>/src/**.d.ts`. Relative specifiers are rewritten from `.ts` (as the
 * sources write them) to `.js`, which every TypeScript resolution mode accepts in a .d.ts.
 */
function emitDeclarations(out) {
  const config = join(out, 'tsconfig.json');
  mkdirSync(out, { recursive: true });
  writeFileSync(config, JSON.stringify({
    extends: join(root, 'tsconfig.json'),
    compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true, rootDir: packagesDir, outDir: out, typeRoots: [join(root, 'node_modules', '@types')] },
    include: LIBRARIES.map((dir) => join(packagesDir, dir, 'src', '**', '*.ts')),
    exclude: [join(packagesDir, '*', 'src', '**', '*.test.ts')],
  }));
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { stdio: 'inherit' });
  for (const file of filesBelow(out, (p) => p.endsWith('.d.ts'))) {
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(/(from\s+|import\s*\(\s*)(["'])(\.{1,2}\/[^"']*?)\.ts\2/g, '$1$2$3.js$2');
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
  return out;
}

/** Resolves `@weir/<name>[/sub]`: published ones stay imports (by their published name), the others are bundled from their sources. */
const publishedImports = {
  name: 'weir-published-imports',
  setup(b) {
    b.onResolve({ filter: /^@weir\// }, (args) => {
      const [scope, name, ...rest] = args.path.split('/');
      const published = PUBLISHED.get(`${scope}/${name}`);
      if (published !== undefined) return { path: [published, ...rest].join('/'), external: true };
      // Bundled from its sources, as its package.json's exports name them.
      const dir = join(packagesDir, name);
      const file = readJson(join(dir, 'package.json')).exports?.[rest.length === 0 ? '.' : `./${rest.join('/')}`];
      if (file === undefined) return { errors: [{ text: `${args.path} is not an export of ${dir}/package.json` }] };
      return { path: join(dir, file) };
    });
  },
};

/** One library: dist/ (esbuild), types/ (declarations), package.json with an exports map. */
async function stageLibrary(dir, stage, declarations, pins) {
  const source = join(packagesDir, dir);
  const manifest = readJson(join(source, 'package.json'));
  const target = join(stage, dir);
  const entries = Object.fromEntries(Object.entries(manifest.exports).map(([subpath, file]) => [subpath === '.' ? 'index' : subpath.slice(2), join(source, file)]));
  const bundled = bundledDependencies[dir] ?? { bundle: [], lazy: [] };
  const result = await build({
    absWorkingDir: source,
    entryPoints: entries,
    outdir: join(target, 'dist'),
    bundle: true,
    plugins: [publishedImports, npmImports(bundled)],
    banner: bundled.bundle.length === 0 ? undefined : REQUIRE_BANNER,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // No source maps: the sources are not in the tarball for them to point at.
    keepNames: true,
    logLevel: 'silent',
  });
  if (result.errors.length > 0) throw new Error(`esbuild failed for ${manifest.name}`);
  // Files the package loads beside itself at run time (scripts/build.mjs `separateBundles`).
  for (const file of filesBelow(join(source, 'dist'), (p) => /kafka-client-library\.js$/.test(p))) cpSync(file, join(target, 'dist', relative(join(source, 'dist'), file)));
  cpSync(join(declarations, dir, 'src'), join(target, 'types'), { recursive: true, filter: (p) => statSync(p).isDirectory() || p.endsWith('.d.ts') });
  if (existsSync(join(source, 'README.md'))) cpSync(join(source, 'README.md'), join(target, 'README.md'));

  const imports = new Set();
  for (const file of filesBelow(join(target, 'dist'), (p) => p.endsWith('.js') && !p.endsWith('kafka-client-library.js'))) bareImports(readFileSync(file, 'utf8')).forEach((n) => imports.add(n));
  for (const file of filesBelow(join(target, 'types'), (p) => p.endsWith('.d.ts'))) {
    for (const name of bareImports(readFileSync(file, 'utf8'))) {
      // Only the libraries ship types: `weir` (the CLI) has none.
      if (name.startsWith('@weir/') && !LIBRARIES.includes(name.slice('@weir/'.length))) {
        throw new Error(`${relative(stage, file)} names ${name}, which publishes no types: keep it out of ${manifest.name}'s public types`);
      }
      imports.add(name);
      // A package whose types are separate (pg): its @types package is a dependency too, or the user's tsc finds none.
      if (pins.has(`@types/${name}`)) imports.add(`@types/${name}`);
    }
  }
  const exportsMap = Object.fromEntries(Object.entries(manifest.exports).map(([subpath, file]) => {
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const types = `./types/${relative(join(source, 'src'), join(source, file)).replace(/\.ts$/, '.d.ts')}`;
    return [subpath, { types, import: `./dist/${name}.js` }];
  }));
  writeFileSync(join(target, 'package.json'), `${JSON.stringify({
    name: manifest.name,
    ...COMMON_FIELDS,
    description: manifest.description,
    // package.json too: `weir run` reads the @weir/api version a job is built against.
    exports: { ...exportsMap, './package.json': './package.json' },
    types: exportsMap['.'].types,
    files: ['dist', 'types', 'README.md'],
    dependencies: dependenciesOf(imports, manifest.name, pins),
  }, null, 2)}\n`);
  return target;
}

/** The workspace packages (directories) whose dist files `files` import by relative path. */
function referencedPackages(files) {
  const dirs = new Set();
  for (const file of files) {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/["'](\.\.\/\.\.\/([\w-]+)\/dist\/[^"']+)["']/g)) {
      dirs.add(resolve(dirname(file), specifier).slice(packagesDir.length + 1).split('/')[0]);
    }
  }
  return dirs;
}

/** `weir`: bin/weir.js, and packages/<name>/{dist,package.json} of the CLI and all it imports, the dashboard's web/ too. */
function stageCli(stage, pins) {
  const target = join(stage, 'weir');
  // Test helpers (`/testing` entries, the demo) stay out: they import s3rver, etcd and the like.
  const shipped = (p) => p.endsWith('.js') && !/\/(testing[^/]*|demo)\.js$/.test(p);
  const included = new Set(['cli']);
  for (let queue = ['cli']; queue.length > 0;) {
    const next = referencedPackages(filesBelow(join(packagesDir, queue.pop(), 'dist'), shipped));
    for (const dir of next) if (!included.has(dir)) (included.add(dir), queue.push(dir));
  }
  const imports = new Set();
  for (const dir of included) {
    const files = filesBelow(join(packagesDir, dir, 'dist'), shipped);
    for (const file of files) {
      cpSync(file, join(target, 'packages', dir, relative(join(packagesDir, dir), file)));
      if (!file.endsWith('kafka-client-library.js')) bareImports(readFileSync(file, 'utf8')).forEach((n) => imports.add(n));
    }
    const manifest = readJson(join(packagesDir, dir, 'package.json'));
    writeFileSync(join(target, 'packages', dir, 'package.json'), `${JSON.stringify({ name: manifest.name, version, type: 'module', private: true }, null, 2)}\n`);
  }
  cpSync(join(packagesDir, 'cli', 'bin'), join(target, 'packages', 'cli', 'bin'), { recursive: true });
  if (included.has('dashboard')) cpSync(join(packagesDir, 'dashboard', 'web'), join(target, 'packages', 'dashboard', 'web'), { recursive: true });
  cpSync(join(packagesDir, 'cli', 'README.md'), join(target, 'README.md'));
  writeFileSync(join(target, 'package.json'), `${JSON.stringify({
    name: 'weir',
    ...COMMON_FIELDS,
    description: 'Weir, a Flink-style stream processor: the weir command, JobManager and TaskManager',
    bin: { weir: './packages/cli/bin/weir.js' },
    exports: { '.': './packages/cli/dist/index.js' },
    files: ['packages', 'README.md'],
    // @weir/* names in its files are text (the templates of `weir init`): it imports its own copies by path.
    dependencies: dependenciesOf([...imports].filter((n) => !n.startsWith('@weir/')), 'weir', pins),
    peerDependencies: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, `>=${pins.get(name).split('.')[0]}`])),
    peerDependenciesMeta: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, { optional: true }])),
  }, null, 2)}\n`);
  return target;
}

/** `create-weir` (`npm create weir <dir>`): its bin, which runs `weir init` of the `weir` at this version. */
function stageCreateWeir(stage) {
  const source = join(packagesDir, 'create-weir');
  const target = join(stage, 'create-weir');
  cpSync(join(source, 'bin'), join(target, 'bin'), { recursive: true });
  cpSync(join(source, 'README.md'), join(target, 'README.md'));
  const manifest = readJson(join(source, 'package.json'));
  writeFileSync(join(target, 'package.json'), `${JSON.stringify({
    name: manifest.name,
    ...COMMON_FIELDS,
    description: manifest.description,
    bin: manifest.bin,
    files: ['bin', 'README.md'],
    dependencies: { weir: version },
  }, null, 2)}\n`);
  return target;
}

/** Builds, stages and packs every published package into `outDir`; resolves with the tarballs' paths. */
export async function packAll(outDir) {
  await buildAll();
  const stage = mkdtempSync(join(tmpdir(), 'weir-pack-'));
  try {
    const pins = pinnedVersions();
    const declarations = emitDeclarations(join(stage, '.types'));
    const staged = [];
    for (const dir of LIBRARIES) staged.push(await stageLibrary(dir, stage, declarations, pins));
    staged.push(stageCli(stage, pins));
    staged.push(stageCreateWeir(stage));
    mkdirSync(outDir, { recursive: true });
    return staged.map((dir) => {
      const before = new Set(readdirSync(outDir));
      execFileSync('pnpm', ['pack', '--pack-destination', outDir], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
      const made = readdirSync(outDir).filter((name) => name.endsWith('.tgz') && !before.has(name));
      const { name } = readJson(join(dir, 'package.json'));
      const tarball = made[0] ?? `${name.replace('@', '').replace('/', '-')}-${version}.tgz`;
      return join(outDir, tarball);
    });
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const outDir = resolve(at === -1 ? join(root, 'pack') : process.argv[at + 1]);
  for (const tarball of await packAll(outDir)) console.log(tarball);
}
