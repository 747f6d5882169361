/** Codes of the errors @weir/security throws; the CLI, gRPC and REST match on them. */
export const SecurityErrorCode = {
  /** A call carried no token, or one that no tokens file line or JWKS key accepts (wrong, expired, other issuer or audience). */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The caller is known but its role (or, for a submitter, its ownership of the job) does not allow the call. */
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** A listener would bind a non-loopback address without TLS and authentication, and security.insecure-bind-acknowledged is not true. */
  INSECURE_BIND: 'INSECURE_BIND',
  /** The security.* keys do not fit together (TLS enabled without its files, a JWKS without issuer, ...). */
  INVALID_SECURITY_CONFIG: 'INVALID_SECURITY_CONFIG',
  /** A certificate, key, CA, tokens or JWKS file cannot be read or is not what it should be. */
  SECURITY_FILE_INVALID: 'SECURITY_FILE_INVALID',
} as const;
