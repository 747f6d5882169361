import type { PartitionRegistryLike, Subscription } from '@weir/runtime';

/** A registry double for TaskManager tests that only records which attempts were released. */
export class FakeRegistry implements PartitionRegistryLike {
  readonly released: string[] = [];

  subscribe(): Subscription {
    throw new Error('FakeRegistry serves no partitions');
  }

  releaseAttempt(jobId: string, attempt: number): void {
    this.released.push(`${jobId}/${attempt}`);
  }

  register(): void {}

  unregister(): void {}
}
