export { exampleJobs, exampleData } from './paths.ts';
export { readCommittedLines } from './committed-output.ts';
export { checkWordCount, countWords, splitWords, type WordCountCheck } from './word-count-verifier.ts';
export { expectedGeneratorSums, finalGeneratorSums } from './generator-sum-verifier.ts';
export { diffLines, expectedRunningSums } from './running-sums-verifier.ts';
export { expectedAlerts } from './fraud-detection-verifier.ts';
export { expectedWindowedCounts } from './windowed-word-count-verifier.ts';
export { expectedKafkaSums, kafkaInputRecord } from './kafka-sums-verifier.ts';
