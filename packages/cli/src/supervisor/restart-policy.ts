/** What the supervisor does when a child exits on its own (not because the supervisor stopped it). */
export type RestartPolicy = { readonly kind: 'never' } | { readonly kind: 'on-failure'; readonly delayMs: number };

/** The restart policies: `never`, or `onFailure(delayMs)`. */
export const RestartPolicy = {
  /** Leave the child dead; the owner hears of the exit. */
  never: (): RestartPolicy => ({ kind: 'never' }),
  /** Start the child again `delayMs` after it exits with a non-zero code or a signal, like compose's `restart: on-failure`. */
  onFailure: (delayMs: number): RestartPolicy => ({ kind: 'on-failure', delayMs }),
} as const;
