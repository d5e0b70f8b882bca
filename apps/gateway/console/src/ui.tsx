import { useId, useState, type ReactNode } from 'react';
import type { AdminApiError } from './api';
import type { Loaded } from './use-load';

export function ErrorNote({ error }: { error: AdminApiError | undefined }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error.message}
      {error.param ? ` (${error.param})` : ''}
    </p>
  );
}

/** What a load shows while it runs and when it fails; its data otherwise. */
export function Loading<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ReactNode }) {
  if (loaded.error) return <ErrorNote error={loaded.error} />;
  if (loaded.data === undefined) return <p aria-busy="true">Loading…</p>;
  return <>{children(loaded.data)}</>;
}

/**
 * A button that runs an action, disabled while it runs, and shows its refusal. With `blocked` (why
 * the action cannot be taken now) it is disabled, the reason shown beside it. With `confirm` the
 * first click asks in the page (the question, then "Yes, <label>" or "Keep"), never a browser
 * dialog: the question can be read, styled and answered from the keyboard like the rest.
 */
export function ActionButton({ label, run, confirm, variant, onDone, blocked }: { label: string; run: () => Promise<unknown>; confirm?: string; variant?: 'danger'; onDone?: () => void; blocked?: string | undefined }) {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<AdminApiError>();
  const reasonId = useId();
  const act = async () => {
    setAsking(false);
    setBusy(true);
    setError(undefined);
    try {
      await run();
      onDone?.();
    } catch (caught) {
      setError(caught as AdminApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="action">
      {asking ? (
        <span className="confirm" role="group" aria-label={`Confirm: ${label}`}>
          <span>{confirm}</span>
          <button type="button" className={variant} onClick={() => void act()} autoFocus>
            Yes, {label.toLowerCase()}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button
          type="button"
          className={variant}
          disabled={busy || blocked !== undefined}
          title={blocked}
          aria-describedby={blocked ? reasonId : undefined}
          onClick={() => (confirm ? setAsking(true) : void act())}
        >
          {busy ? `${label}…` : label}
        </button>
      )}
      {blocked && (
        <small className="muted" id={reasonId}>
          {blocked}
        </small>
      )}
      <ErrorNote error={error} />
    </span>
  );
}

/** "Updated 12:03:04 · refreshes on its own": what a live page says of its freshness. */
export function LiveNote({ at, every }: { at: Date | undefined; every: number }) {
  return (
    <p className="muted live" aria-live="off">
      {at ? `Updated ${at.toLocaleTimeString()}` : 'Loading…'} · refreshes every {Math.round(every / 1000)} s
    </p>
  );
}

/** Previous / next over cursor pages: the cursors seen so far are the way back. */
export function CursorPager({ hasMore, nextCursor, trail, onMove }: { hasMore: boolean; nextCursor: string | null; trail: string[]; onMove: (trail: string[]) => void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={trail.length === 0} onClick={() => onMove(trail.slice(0, -1))}>
        ← Newer
      </button>
      <span>Page {trail.length + 1}</span>
      <button type="button" disabled={!hasMore || !nextCursor} onClick={() => nextCursor && onMove([...trail, nextCursor])}>
        Older →
      </button>
    </nav>
  );
}

/** A secret the API shows this once (a key, a signing secret), until the page is left. */
export function ShownOnce({ label, secret }: { label: string; secret: string | undefined }) {
  if (!secret) return null;
  return (
    <p className="once" role="status">
      {label} (shown once — copy it now): <code>{secret}</code>
    </p>
  );
}
