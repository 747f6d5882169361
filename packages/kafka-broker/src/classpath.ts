import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WeirError } from '@weir/common';
import { KafkaBrokerErrorCode } from './errors.ts';

const MAVEN_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'maven');
const POM = join(MAVEN_DIR, 'pom.xml');
/** The resolved class path, first line the pom's hash: ignored by git, rebuilt when the pom changes or a jar is gone. */
const CACHE = join(MAVEN_DIR, '.classpath');

/** Whether a `java` command runs here: the broker needs a JDK (17 or newer). */
export function javaAvailable(): boolean {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/**
 * The broker's class path: the jars of `org.apache.kafka:kafka_2.13` and its dependencies,
 * fetched once by Maven into the local repository (~/.m2) and cached.
 */
export function kafkaClasspath(): string {
  const pomHash = createHash('sha256').update(readFileSync(POM)).digest('hex');
  const cached = readCache(pomHash);
  if (cached !== undefined) return cached;
  const out = join(MAVEN_DIR, '.classpath.tmp');
  const mvn = spawnSync('mvn', ['-B', '-q', '-f', POM, 'dependency:build-classpath', `-Dmdep.outputFile=${out}`], {
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  if (mvn.error !== undefined || mvn.status !== 0) {
    throw new WeirError(
      KafkaBrokerErrorCode.JARS_UNAVAILABLE,
      `could not fetch the Kafka broker's jars with Maven (mvn dependency:build-classpath on ${POM}): ` +
        `${mvn.error?.message ?? `exit ${mvn.status}`}\n${(mvn.stdout ?? '') + (mvn.stderr ?? '')}`.trim(),
    );
  }
  const classpath = readFileSync(out, 'utf8').trim();
  writeFileSync(CACHE, `${pomHash}\n${classpath}\n`);
  return classpath;
}

function readCache(pomHash: string): string | undefined {
  if (!existsSync(CACHE)) return undefined;
  const [hash, classpath] = readFileSync(CACHE, 'utf8').split('\n');
  if (hash !== pomHash || classpath === undefined || classpath === '') return undefined;
  return classpath.split(':').every((jar) => existsSync(jar)) ? classpath : undefined;
}
