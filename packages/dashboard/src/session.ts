/**
 * The token the user signed in with, kept in sessionStorage: it lives as long as the tab, is
 * not sent anywhere but in the Authorization header of the dashboard's own API calls (no
 * cookie, so no cross-site request carries it), and is gone when the tab closes.
 */
const KEY = 'weir.token';

export function sessionToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

export function signIn(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function signOut(): void {
  sessionStorage.removeItem(KEY);
}

/** Called when an API call is answered 401 (no token, or one the cluster no longer knows): the dashboard goes back to its login page with `message`. */
let unauthorizedListener: ((message: string) => void) | undefined;

export function onUnauthorized(listener: (message: string) => void): void {
  unauthorizedListener = listener;
}

export function unauthorized(message: string): void {
  unauthorizedListener?.(message);
}
