import { useState } from 'preact/hooks';
import { api, ApiError } from '../api.ts';
import type { WhoAmI } from '../permissions.ts';
import { signIn, signOut } from '../session.ts';

/**
 * The login page of a cluster with authentication on: paste a token (a tokens-file token or a
 * JWT); it is checked with GET /auth/whoami before the dashboard opens. `message` says why the
 * page is shown (a refused token, a session the cluster ended).
 */
export function LoginPage(props: { message: string | undefined; onSignedIn: (who: WhoAmI) => void }) {
  const [token, setToken] = useState('');
  const [message, setMessage] = useState(props.message);
  const [checking, setChecking] = useState(false);

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const pasted = token.trim();
    if (pasted === '') {
      setMessage('Paste a token first.');
      return;
    }
    setChecking(true);
    signIn(pasted);
    try {
      props.onSignedIn(await api.whoami(true));
    } catch (error) {
      signOut();
      setMessage(error instanceof ApiError && error.status === 401 ? `The cluster refused this token: ${error.message}` : `Cannot sign in: ${String(error instanceof Error ? error.message : error)}`);
    } finally {
      setChecking(false);
    }
  };

  return (
    <div class="login">
      <h2>Weir</h2>
      <p class="muted">This cluster asks who you are. Paste your token (from its tokens file, or a JWT of your identity provider).</p>
      <form onSubmit={(event) => void submit(event)}>
        <input type="password" autocomplete="off" data-testid="login-token" placeholder="token" value={token} onInput={(event) => setToken((event.target as HTMLInputElement).value)} />
        <button type="submit" data-testid="login-submit" disabled={checking}>
          Sign in
        </button>
      </form>
      {message !== undefined && (
        <p class="error" data-testid="login-message">
          {message}
        </p>
      )}
    </div>
  );
}
