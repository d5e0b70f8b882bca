import { useState } from 'react';
import { signIn, type AdminApiError, type ConsoleSession } from './api';
import { ErrorNote } from './ui';

/** The operator credential is sent once and exchanged for a session cookie; the page keeps nothing. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: ConsoleSession) => void }) {
  const [credential, setCredential] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AdminApiError>();
  return (
    <main className="sign-in">
      <h1>Commerce Gateway console</h1>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          setError(undefined);
          try {
            onSignedIn(await signIn(credential.trim()));
          } catch (caught) {
            setError(caught as AdminApiError);
          } finally {
            setBusy(false);
            setCredential('');
          }
        }}
      >
        <label htmlFor="credential">Operator credential</label>
        <input id="credential" name="credential" type="password" autoComplete="off" placeholder="op_…" value={credential} onChange={(e) => setCredential(e.target.value)} required autoFocus />
        <button type="submit" disabled={busy || !credential.trim()}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorNote error={error} />
        <p className="hint">
          Create one with <code>npm run gateway -- operators create --name you --access full --all-merchants</code>.
        </p>
      </form>
    </main>
  );
}
