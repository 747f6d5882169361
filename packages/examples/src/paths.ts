import { fileURLToPath } from 'node:url';

const here = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** Absolute paths of the example job modules, for `weir run`, the demo, tests and benchmarks. */
export const exampleJobs = {
  /** Args: `<input file> <output dir>`; FileSource → split → keyBy → count in ValueState → FileSink. */
  wordCount: here('../jobs/word-count.ts'),
  /** Args: `<count> <output dir>`; DataGeneratorSource of 0..count-1 → keyBy(n mod 10) → running sum → FileSink. */
  generatorSum: here('../jobs/generator-sum.ts'),
  /** Args: `<count> <records/s> <output dir>`; checkpointed running sums per key → exactly-once FileSink (the demo's recovery job). */
  runningSums: here('../jobs/running-sums.ts'),
  /** Args: `<count> <transactions/s> <output dir>`; Flink's fraud-detection walkthrough: alerts on a small then a large transaction of an account, flag and processing-time timer in ValueState. */
  fraudDetection: here('../jobs/fraud-detection.ts'),
  /** Args: `<words> <words/s> <output dir>`; out-of-order words counted per 5 s event-time window, stragglers to a late-data side output. */
  windowedWordCount: here('../jobs/windowed-word-count.ts'),
  /** Args: `<bootstrap servers> <input topic> <output topic> <transactional id prefix> [guarantee] [checkpoint ms] [discovery ms]`; KafkaSource → keyBy → running sum → KafkaSink (`pnpm demo kafka`). */
  kafkaRunningSums: here('../jobs/kafka-running-sums.ts'),
  /** Args: `<hostname> <port> <database> <slot> <summary url> [checkpoint ms]`; PostgresCdcSource of accounts → keyBy(id mod 10) → balances in MapState → EXACTLY_ONCE PostgresSink upserting summary (`pnpm demo postgres`). */
  postgresSummary: here('../jobs/postgres-summary.ts'),
} as const;

/** Absolute paths of the example inputs. */
export const exampleData = {
  /** The first chapter of A Tale of Two Cities (public domain), about 950 words. */
  taleOfTwoCities: here('../data/tale-of-two-cities.txt'),
} as const;
