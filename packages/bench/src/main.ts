// `pnpm bench [scenario...] [options]` (USAGE below; --help lists the scenarios): runs the scenarios (all by default), prints a
// table per scenario and one JSON line per scenario (prefixed `BENCH `) for tools.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Scenario } from './scenario.ts';
import { summarizeProfiles } from './profile-summary.ts';
import { backpressure } from './scenarios/backpressure.ts';
import { checkpointOverhead } from './scenarios/checkpoint-overhead.ts';
import { incremental } from './scenarios/incremental.ts';
import { nexmark } from './scenarios/nexmark.ts';
import { nexmarkSql } from './scenarios/nexmark-sql.ts';
import { recovery } from './scenarios/recovery.ts';
import { levelCount } from './scenarios/level-count.ts';
import { kafka } from './scenarios/kafka.ts';
import { postgres } from './scenarios/postgres.ts';
import { shuffle } from './scenarios/shuffle.ts';
import { DEFAULT_KEYS, STATE_SCALING_MODES, stateScaling, type StateScalingMode } from './scenarios/state-scaling.ts';
import { taskManagerStart } from './scenarios/taskmanager-start.ts';
import { windows } from './scenarios/windows.ts';

const USAGE =
  'usage: pnpm bench [scenario...] [--profile DIR] [--events N] [--records N] [--queries q5,q7] [--guarantees NONE,EXACTLY_ONCE] [--tls] [--keys 200000,1000000] ' +
  '[--modes full,incremental,changelog] [--config [B:]key=value]... [--repeat N] [--seconds S] [--state-mb N] [--rounds R]';
const { positionals, values } = parseOptions();
const keys = values.keys === undefined ? DEFAULT_KEYS : values.keys.split(',').map(Number);
if (keys.some((k) => !(Number.isSafeInteger(k) && k >= 1_000))) {
  console.error(`error: --keys takes key counts separated by commas (each at least 1000), got ${values.keys}`);
  process.exit(2);
}
// state-scaling runs for hours at its default sizes: only when named.
const scenarios: readonly Scenario[] = [shuffle, checkpointOverhead({ seconds: positiveNumber('seconds', 30), stateMb: positiveNumber('state-mb', 1), rounds: positiveNumber('rounds', 3), config: stateConfig(false) }), backpressure, incremental, levelCount, taskManagerStart, windows, recovery, nexmark, nexmarkSql, kafka, postgres, stateScaling({ keys, modes: stateModes(), config: stateConfig(false), configB: stateConfig(true), repeat: Number(values.repeat ?? 1) })];

if (values.help === true) {
  console.log(`${USAGE}\n\nscenarios (all but state-scaling when none is named):`);
  for (const s of scenarios) console.log(`  ${s.name}: ${s.description}`);
  process.exit(0);
}
const unknown = positionals.filter((name) => !scenarios.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`error: unknown scenario ${unknown.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const selected = positionals.length === 0 ? scenarios.filter((s) => s.name !== 'state-scaling') : scenarios.filter((s) => positionals.includes(s.name));
const profileDir = values.profile === undefined ? undefined : resolve(process.env.INIT_CWD ?? '.', values.profile);
if (profileDir) mkdirSync(profileDir, { recursive: true });
const events = values.events === undefined ? undefined : Number(values.events);
if (events !== undefined && !(Number.isSafeInteger(events) && events > 0)) {
  console.error(`error: --events takes a whole number of events, got ${values.events}`);
  process.exit(2);
}
const queries = values.queries?.split(',').filter((q) => q !== '');
const records = values.records === undefined ? undefined : Number(values.records);
if (records !== undefined && !(Number.isSafeInteger(records) && records > 0)) {
  console.error(`error: --records takes a whole number of records, got ${values.records}`);
  process.exit(2);
}
const guarantees = values.guarantees?.split(',').filter((g) => g !== '');
if (guarantees?.some((g) => !['NONE', 'AT_LEAST_ONCE', 'EXACTLY_ONCE'].includes(g))) {
  console.error(`error: --guarantees takes NONE, AT_LEAST_ONCE and EXACTLY_ONCE separated by commas, got ${values.guarantees}`);
  process.exit(2);
}

for (const scenario of selected) {
  console.log(`\n## ${scenario.name}: ${scenario.description}`);
  const result = await scenario.run({ profileDir, events, records, queries, guarantees, tls: values.tls === true });
  const width = Math.max(...result.rows.map(([label]) => label.length));
  for (const [label, value, unit] of result.rows) console.log(`  ${label.padEnd(width)}  ${value.padStart(14)} ${unit}`);
  console.log(`BENCH ${JSON.stringify({ scenario: scenario.name, ...result.figures })}`);
  if (profileDir) for (const line of summarizeProfiles(profileDir)) console.log(line);
}

/** A positive number option (checkpoint-overhead's --seconds, --state-mb, --rounds), `fallback` when absent. */
function positiveNumber(name: 'seconds' | 'state-mb' | 'rounds', fallback: number): number {
  const text = values[name];
  const value = text === undefined ? fallback : Number(text);
  if (!(value > 0)) {
    console.error(`error: --${name} takes a positive number, got ${text}`);
    process.exit(2);
  }
  return value;
}

/** `--modes full,incremental,changelog` (state-scaling; full and incremental by default). */
function stateModes(): StateScalingMode[] {
  const modes = (values.modes ?? 'full,incremental').split(',') as StateScalingMode[];
  if (modes.some((m) => !STATE_SCALING_MODES.includes(m))) {
    console.error(`error: --modes takes ${STATE_SCALING_MODES.join(', ')} separated by commas, got ${values.modes}`);
    process.exit(2);
  }
  return modes;
}

/** `--config key=value`, repeatable (state-scaling, checkpoint-overhead): cluster configuration on top of the bench's; `--config B:key=value` only variant B's. */
function stateConfig(variantB: boolean): Record<string, string> {
  const pairs = (values.config ?? []).filter((pair) => pair.startsWith('B:') === variantB).map((pair) => (variantB ? pair.slice(2) : pair));
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** The command line, or the usage and exit code 2 for an option the bench does not know. */
function parseOptions() {
  try {
    return parseArgs({ allowPositionals: true, options: { profile: { type: 'string' }, events: { type: 'string' }, records: { type: 'string' }, guarantees: { type: 'string' }, queries: { type: 'string' }, tls: { type: 'boolean' }, keys: { type: 'string' }, modes: { type: 'string' }, config: { type: 'string', multiple: true }, repeat: { type: 'string' }, seconds: { type: 'string' }, 'state-mb': { type: 'string' }, rounds: { type: 'string' }, help: { type: 'boolean' } } });
  } catch (err) {
    console.error(`error: ${(err as Error).message.split('. ')[0]}\n${USAGE} (--help lists the scenarios)`);
    process.exit(2);
  }
}
