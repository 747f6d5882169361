/**
 * Runs a command to completion and exits: 0 when it resolves, 1 with one `error: …` line on
 * stderr when it throws. No stack trace: messages say what is wrong and what to do.
 */
export async function runMain(command: () => Promise<void>): Promise<never> {
  try {
    await command();
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  process.exit(process.exitCode ?? 0);
}
