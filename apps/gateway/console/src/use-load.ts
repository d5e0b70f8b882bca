import { useCallback, useEffect, useState } from 'react';
import { AdminApiError } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: AdminApiError | undefined;
  loading: boolean;
  reload: () => void;
  /** When the data shown was read (the page says how fresh a live view is). */
  loadedAt: Date | undefined;
}

/**
 * Loads once per `key` (and again on reload); an answer to an older key is dropped. With `every`
 * (ms) it reloads on its own while the tab is visible — the data shown stays until the new answer
 * replaces it, so a live page does not flicker.
 */
export function useLoad<T>(load: () => Promise<T>, key: string, { every }: { every?: number } = {}): Loaded<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: AdminApiError; loading: boolean; at?: Date }>({ key, loading: true });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ key, data: previous.key === key ? previous.data : undefined, at: previous.key === key ? previous.at : undefined, loading: true }));
    load().then(
      (data) => current && setState({ key, data, loading: false, at: new Date() }),
      (error: unknown) => current && setState({ key, loading: false, error: error instanceof AdminApiError ? error : new AdminApiError(0, 'internal_error', String(error)) }),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names what `load` reads
  }, [key, round]);
  useEffect(() => {
    if (!every) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setRound((n) => n + 1);
    }, every);
    return () => clearInterval(timer);
  }, [every, key]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { data: state.key === key ? state.data : undefined, error: state.error, loading: state.loading, reload, loadedAt: state.key === key ? state.at : undefined };
}
