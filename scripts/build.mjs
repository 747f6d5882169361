#!/usr/bin/env node
// `pnpm build`: compiles every package's TypeScript to JavaScript with esbuild, one ES module
// per entry point in `packages/<name>/dist/`, so the weir command, the JobManager and the
// TaskManagers start without compiling TypeScript (tsx) at every start.
//
// Each entry is the package's own code bundled into one file (a process loads a dozen files,
// not hundreds); npm packages stay imports (but see `bundledDependencies` and
// `separateBundles`), and `@weir/<name>` becomes a relative import of that package's own dist
// file, so packages keep their boundaries and nothing resolves `@weir/*` to TypeScript sources
// at run time. Unit tests and tsx scripts keep using the sources (package.json `exports`),
// untouched by this.
//
// A build takes a fraction of a second, so it always rebuilds everything; a file whose
// content did not change is left alone, and changed ones are replaced by a rename, so a
// process starting meanwhile never reads half a file. Exits non-zero on a compile error.
import { existsSync, readdirSync, readFileSync, renameSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packagesDir = join(root, 'packages');

/** Process entry points that are not package exports: dist/<name>.js per source file. */
const extraEntries = {
  cli: { main: 'src/main.ts', demo: 'src/demo/main.ts' },
  // A job's worker thread starts from its own file, beside the module that starts it (job-worker.ts).
  jobmanager: { 'worker-main': 'src/user-code/worker-main.ts' },
  bench: { 'hand-written-worker': 'src/hand-written/worker.ts' },
  // The liveness endpoint's thread, likewise (liveness-endpoint.ts).
  taskmanager: { 'liveness-worker': 'src/liveness/liveness-worker.ts' },
};

/**
 * npm packages bundled into the dist file of the workspace package that imports them (by
 * directory name), with what they import but `lazy`, instead of staying imports. Each is
 * loaded by every process at start as many CommonJS files, each resolved through pnpm's
 * symlinks, read and compiled: @grpc/grpc-js some 65, protobufjs (with long and
 * @protobufjs/*) some 40, pino (with sonic-boom, thread-stream...) some 25, commander 8. As
 * part of @weir/rpc's one file, grpc-js made loading @weir/rpc a third faster and a
 * TaskManager's start 15%; protobufjs, pino and commander took another 13% off the start
 * (CPU to registered, median of 14: 310 -> 270 ms). Only for packages that read no files
 * beside themselves at run time: grpc-js's channelz and ORCA services do, and @weir/rpc offers
 * neither; pino's transports do (they run pino's files in a worker thread), and Weir logs to
 * stdout without one. A package imported by two workspace packages would become two copies:
 * msgpackr (common and runtime) stays an import.
 */
export const bundledDependencies = {
  // grpc-js loads @grpc/proto-loader only for those two services.
  rpc: { bundle: ['@grpc/grpc-js', 'protobufjs'], lazy: ['@grpc/proto-loader'] },
  common: { bundle: ['pino'], lazy: [] },
  cli: { bundle: ['commander'], lazy: [] },
  // dt-sql-parser's ES modules import directories (./parser), which Node's ES module loader refuses.
  sql: { bundle: ['dt-sql-parser'], lazy: [] },
};

/**
 * npm packages bundled whole, with their dependencies, into a file of their own in a workspace
 * package's dist (by directory name: dist name -> package), which that package loads on first
 * use instead of the package. @platformatic/kafka is some 200 modules (with ajv, avsc,
 * protobufjs...) that a process took 0.5-0.7 s to resolve and compile one by one (2-4 s at a
 * load average of 10), and 0.16-0.29 s as one file, in every TaskManager and job worker of a
 * Kafka job; only those load it (connectors' kafka-library.ts), so it is not part of
 * @weir/connectors' own file.
 */
const separateBundles = {
  connectors: { 'kafka-client-library': '@platformatic/kafka' },
};

/** Bundled CommonJS calls require (for Node's own modules), which an ES module lacks. */
export const REQUIRE_BANNER = { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" };

/** Every workspace package: its directory, npm name and entries (dist name -> source file). */
function readPackages() {
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(packagesDir, d.name, 'package.json')))
    .map((d) => {
      const dir = join(packagesDir, d.name);
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const entries = { ...extraEntries[d.name] };
      for (const [subpath, file] of Object.entries(manifest.exports ?? {})) entries[distName(subpath)] = file;
      return { dir, name: manifest.name, entries, bundled: bundledDependencies[d.name] ?? { bundle: [], lazy: [] } };
    });
}

/** `.` -> `index`, `./testing` -> `testing`. */
function distName(subpath) {
  return subpath === '.' ? 'index' : subpath.slice(2).replaceAll('/', '-');
}

/** Resolves `@weir/<pkg>[/<subpath>]` to a relative import of its compiled file; anything else bare stays external. */
function workspaceImports(packages, from) {
  const byName = new Map(packages.map((p) => [p.name, p]));
  return {
    name: 'weir-workspace-imports',
    setup(b) {
      b.onResolve({ filter: /^@weir\// }, (args) => {
        const [scope, name, ...rest] = args.path.split('/');
        const target = byName.get(`${scope}/${name}`);
        const entry = distName(rest.length === 0 ? '.' : `./${rest.join('/')}`);
        if (target === undefined || target.entries[entry] === undefined) {
          return { errors: [{ text: `${args.path} is not a workspace package export (see its package.json "exports")` }] };
        }
        const path = relative(join(from.dir, 'dist'), join(target.dir, 'dist', `${entry}.js`));
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/**
 * Leaves npm packages as imports, but those `bundled` lists and what they import themselves
 * (except their `lazy` imports).
 */
export function npmImports(bundled) {
  const listed = (names, path) => names.some((name) => path === name || path.startsWith(`${name}/`));
  return {
    name: 'weir-npm-imports',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const bundle = listed(bundled.bundle, args.path) || (args.importer.includes('/node_modules/') && !listed(bundled.lazy, args.path));
        return bundle ? undefined : { path: args.path, external: true };
      });
    },
  };
}

async function buildPackage(pkg, packages) {
  const result = await build({
    absWorkingDir: pkg.dir,
    entryPoints: Object.fromEntries(Object.entries(pkg.entries).map(([name, file]) => [name, join(pkg.dir, file)])),
    outdir: join(pkg.dir, 'dist'),
    bundle: true,
    plugins: [workspaceImports(packages, pkg), npmImports(pkg.bundled)],
    banner: pkg.bundled.bundle.length === 0 ? undefined : REQUIRE_BANNER,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    sourcesContent: false,
    // Class and function names stay as written: error messages and logs print them.
    keepNames: true,
    write: false,
    logLevel: 'silent',
  });
  return writeChanged(result.outputFiles);
}

/** @platformatic/wasm-utils as its variant with the WebAssembly inline: the default one reads native.wasm beside itself. */
const inlineWasmUtils = {
  name: 'weir-inline-wasm-utils',
  setup(b) {
    b.onResolve({ filter: /^@platformatic\/wasm-utils$/ }, (args) => b.resolve('@platformatic/wasm-utils/bundled', { resolveDir: args.resolveDir, kind: args.kind }));
  },
};

/** One of `separateBundles`: the npm package `specifier` and everything it imports, as `dist/<name>.js` of `pkg`. */
async function buildSeparateBundle(pkg, name, specifier) {
  const result = await build({
    absWorkingDir: pkg.dir,
    stdin: { contents: `export * from '${specifier}';`, resolveDir: pkg.dir, loader: 'js' },
    outfile: join(pkg.dir, 'dist', `${name}.js`),
    bundle: true,
    plugins: [inlineWasmUtils],
    banner: REQUIRE_BANNER,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Bundling renames clashing top-level names; error classes keep theirs.
    keepNames: true,
    write: false,
    logLevel: 'silent',
  });
  return writeChanged(result.outputFiles);
}

/** Writes the files whose content changed, each by a rename; resolves with their number. */
function writeChanged(outputFiles) {
  let written = 0;
  for (const file of outputFiles) {
    if (existsSync(file.path) && readFileSync(file.path).equals(file.contents)) continue;
    mkdirSync(dirname(file.path), { recursive: true });
    const temp = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temp, file.contents);
    renameSync(temp, file.path);
    written++;
  }
  return written;
}

/** The newest modification time (ms) of the files below `path`, or of `path` itself. */
function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

/**
 * The web dashboard (packages/dashboard, Vite) into packages/dashboard/web, which the
 * JobManager serves. Vite takes seconds, not a fraction of one, so it runs only when a source
 * is newer than the last build; resolves with the number of files written.
 */
async function buildDashboard() {
  const dir = join(packagesDir, 'dashboard');
  const built = join(dir, 'web', 'index.html');
  const sources = Math.max(...['src', 'index.html', 'vite.config.ts', 'package.json'].map((f) => newestMtime(join(dir, f))));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return 0;
  const { build: viteBuild } = await import('vite');
  const output = await viteBuild({ configFile: join(dir, 'vite.config.ts'), logLevel: 'warn' });
  return [output].flat().reduce((n, o) => n + ('output' in o ? o.output.length : 0), 0);
}

/** Builds every package and the dashboard; resolves with the number of files written (0 when everything was up to date). */
export async function buildAll() {
  const packages = readPackages();
  const separate = packages.flatMap((p) => Object.entries(separateBundles[basename(p.dir)] ?? {}).map(([name, specifier]) => buildSeparateBundle(p, name, specifier)));
  const counts = await Promise.all([...packages.map((p) => buildPackage(p, packages)), ...separate, buildDashboard()]);
  return counts.reduce((a, b) => a + b, 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  try {
    const written = await buildAll();
    if (!process.argv.includes('--quiet')) {
      console.log(`weir: built packages/*/dist in ${Math.round(performance.now() - started)} ms (${written} files changed)`);
    }
  } catch (err) {
    const errors = err.errors ?? [];
    if (errors.length === 0) throw err;
    for (const e of errors) {
      const where = e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ` : '';
      console.error(`error: ${where}${e.text}`);
    }
    process.exit(1);
  }
}
