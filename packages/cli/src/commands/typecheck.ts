import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { WeirError } from '@weir/common';
import { CliErrorCode } from '../errors.ts';

/** The slice of TypeScript's compiler API the check uses. */
interface Ts {
  findConfigFile(dir: string, exists: (path: string) => boolean): string | undefined;
  readConfigFile(path: string, read: (path: string) => string | undefined): { config?: unknown; error?: Diagnostic };
  parseJsonConfigFileContent(json: unknown, host: unknown, dir: string): { options: Record<string, unknown>; fileNames: string[]; errors: Diagnostic[] };
  createProgram(files: string[], options: Record<string, unknown>): { emit?: never } & object;
  getPreEmitDiagnostics(program: object): readonly Diagnostic[];
  flattenDiagnosticMessageText(text: unknown, newLine: string): string;
  sys: { fileExists(path: string): boolean; readFile(path: string): string | undefined };
}

interface Diagnostic {
  file?: { fileName: string; getLineAndCharacterOfPosition(pos: number): { line: number; character: number } };
  start?: number;
  messageText: unknown;
  code: number;
}

/**
 * `weir run --typecheck`: type-checks the job's project (the tsconfig.json nearest the job,
 * or the job file alone with strict settings) with the project's own TypeScript, before
 * anything is bundled. Throws TYPE_ERRORS listing every error as `file:line:column: message`
 * (paths relative to the working directory), as tsc prints them.
 */
export function typecheckJob(jobFile: string, cwd: string): void {
  const ts = loadTypeScript(jobFile);
  const file = resolve(jobFile);
  const configPath = ts.findConfigFile(dirname(file), (p) => ts.sys.fileExists(p));
  let options: Record<string, unknown>;
  let files: string[];
  if (configPath === undefined) {
    options = { strict: true, noEmit: true, module: 199 /* NodeNext */, moduleResolution: 99 /* NodeNext */, target: 9 /* ES2022 */, skipLibCheck: true, allowImportingTsExtensions: true };
    files = [file];
  } else {
    const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
    options = { ...parsed.options, noEmit: true };
    files = parsed.fileNames.includes(file) ? parsed.fileNames : [...parsed.fileNames, file];
  }
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(files, options));
  if (diagnostics.length === 0) return;
  const lines = diagnostics.map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (d.file === undefined || d.start === undefined) return `error TS${d.code}: ${text}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${relative(cwd, d.file.fileName) || d.file.fileName}:${line + 1}:${character + 1}: error TS${d.code}: ${text}`;
  });
  throw new WeirError(CliErrorCode.TYPE_ERRORS, `job ${relative(cwd, file)} does not type-check (${diagnostics.length} error${diagnostics.length === 1 ? '' : 's'}), nothing was submitted:\n${lines.join('\n')}`);
}

/** The job project's own `typescript` (the version its tsc and editor use), else one beside this CLI. */
function loadTypeScript(jobFile: string): Ts {
  for (const from of [resolve(jobFile), join(process.cwd(), 'package.json'), import.meta.filename ?? '']) {
    if (from === '' || !existsSync(dirname(from))) continue;
    try {
      return createRequire(from)('typescript') as Ts;
    } catch {
      // Not installed there: try the next place.
    }
  }
  throw new WeirError(CliErrorCode.TYPESCRIPT_MISSING, 'weir run --typecheck needs the typescript package: npm install --save-dev typescript in the job\'s project');
}
