import { useCallback, useEffect, useState } from 'react';
import { AdminApiError } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: AdminApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** Loads once per `key` (and again on reload); an answer to an older key is dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: AdminApiError; loading: boolean }>({ key, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ key, data: previous.key === key ? previous.data : undefined, loading: true }));
    load().then(
      (data) => current && setState({ key, data, loading: false }),
      (error: unknown) => current && setState({ key, loading: false, error: error instanceof AdminApiError ? error : new AdminApiError(0, 'internal_error', String(error)) }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names what `load` reads
  }, [key, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.key === key ? state.data : undefined, error: state.error, loading: state.loading, reload };
}
