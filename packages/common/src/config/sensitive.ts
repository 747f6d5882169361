/** What a sensitive value is shown as, as Flink shows it. */
export const HIDDEN_CONTENT = '******';

/**
 * Parts of a key name that mark its value as secret, as Flink's GlobalConfiguration.isSensitive
 * has them, plus `key` (s3.access-key, s3.secret-key, a private key's path) and `token`.
 */
const SENSITIVE_PARTS = ['password', 'secret', 'key', 'token', 'auth-params', 'basic-auth', 'jaas.config', 'http-headers'];

/** Whether the value of config key `key` must not be shown: REST, logs, error messages. */
export function isSensitiveKey(key: string): boolean {
  const lower = key.toLowerCase();
  return SENSITIVE_PARTS.some((part) => lower.includes(part));
}

/** `config` with every sensitive key's value replaced by HIDDEN_CONTENT (an empty value stays empty: it says only that none is set). */
export function maskedConfig(config: Readonly<Record<string, string | number | boolean>>): Record<string, string | number | boolean> {
  return Object.fromEntries(Object.entries(config).map(([key, value]) => [key, isSensitiveKey(key) && value !== '' ? HIDDEN_CONTENT : value]));
}
