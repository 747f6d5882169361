import { recordingLogger } from '@weir/common/testing';
import { describe, expect, it } from 'vitest';
import { checkExposure, isLoopback, warnCleartextMetrics, type Listener } from './exposure.ts';
import type { SecuritySettings } from './settings.ts';

const grpcApi: Listener = { name: "the JobManager's gRPC API", bindKey: 'jobmanager.bind-host', host: '0.0.0.0', exposes: 'submit jobs', needs: { tls: 'internal', authentication: true } };
const open: SecuritySettings = { insecureBindAcknowledged: false };
const secured: SecuritySettings = { insecureBindAcknowledged: false, internalTls: { cert: 'c', key: 'k', ca: 'a' }, tokensFile: 't' };

describe('checkExposure', () => {
  it('knows the loopback addresses', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1'].filter(isLoopback)).toHaveLength(6);
    expect(['0.0.0.0', '::', '10.0.0.5', 'jobmanager', '128.0.0.1'].filter(isLoopback)).toEqual([]);
  });

  it('refuses a non-loopback bind without TLS and authentication, saying what is exposed and which keys close it', () => {
    const { logger } = recordingLogger();
    expect(() => checkExposure(open, [grpcApi], logger)).toThrow(
      "refusing to start: the JobManager's gRPC API on 0.0.0.0 (jobmanager.bind-host) would let anyone who reaches it submit jobs; it needs security.ssl.internal.enabled: true (with security.ssl.internal.cert, .key, .ca) and security.auth.tokens-file or security.auth.jwt.jwks (with .issuer, .audience). Close it with those keys",
    );
    // TLS alone is not enough for a listener that also needs authentication.
    expect(() => checkExposure({ ...open, internalTls: secured.internalTls }, [grpcApi], logger)).toThrow(/it needs security\.auth\.tokens-file or security\.auth\.jwt\.jwks/);
  });

  it('starts a loopback or protected listener silently, and an acknowledged exposed one with a warning', () => {
    const { logger, warnings } = recordingLogger();
    checkExposure(open, [{ ...grpcApi, host: '127.0.0.1' }], logger);
    checkExposure(secured, [grpcApi], logger);
    expect(warnings).toEqual([]);
    checkExposure({ ...open, insecureBindAcknowledged: true }, [grpcApi], logger);
    expect(warnings).toEqual([
      "INSECURE: the JobManager's gRPC API on 0.0.0.0 (jobmanager.bind-host) would let anyone who reaches it submit jobs; it needs security.ssl.internal.enabled: true (with security.ssl.internal.cert, .key, .ca) and security.auth.tokens-file or security.auth.jwt.jwks (with .issuer, .audience) (started anyway: security.insecure-bind-acknowledged is true)",
    ]);
  });
});

describe('warnCleartextMetrics', () => {
  it('warns at a plain-HTTP Prometheus endpoint off loopback with authentication on, and only then', () => {
    const { logger, entries } = recordingLogger();
    warnCleartextMetrics(secured, '0.0.0.0', 'taskmanager.bind-host', logger);
    expect(entries.map((e) => e.message)).toEqual([expect.stringContaining('INSECURE: the Prometheus endpoint on 0.0.0.0 (taskmanager.bind-host) is plain HTTP: the token every scrape shows crosses the network in clear. Set metrics.reporter.prom.ssl.enabled: true')]);
    warnCleartextMetrics(secured, '127.0.0.1', 'taskmanager.bind-host', logger);
    warnCleartextMetrics(open, '0.0.0.0', 'taskmanager.bind-host', logger);
    warnCleartextMetrics({ ...secured, prometheusTls: { cert: 'c', key: 'k' } }, '0.0.0.0', 'taskmanager.bind-host', logger);
    expect(entries).toHaveLength(1);
  });
});
