import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.ts';

/** web.refresh-interval, from GET /config. */
export const RefreshInterval = createContext(1_000);

export interface Polled<T> {
  readonly data: T | undefined;
  readonly error: ApiError | Error | undefined;
}

/**
 * Calls `fetcher` now and every refresh interval while the component is shown, keeping the
 * last answer on screen while a request fails (the JobManager restarting, say).
 */
export function usePoll<T>(fetcher: () => Promise<T>, key: string): Polled<T> {
  const interval = useContext(RefreshInterval);
  const [state, setState] = useState<Polled<T>>({ data: undefined, error: undefined });
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async (): Promise<void> => {
      try {
        const data = await fetcher();
        if (!stopped) setState({ data, error: undefined });
      } catch (error) {
        if (!stopped) setState((previous) => ({ data: previous.data, error: error as Error }));
      }
      if (!stopped) timer = setTimeout(() => void tick(), interval);
    };
    setState({ data: undefined, error: undefined });
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [key, interval]);
  return state;
}
