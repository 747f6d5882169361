import * as grpc from '@grpc/grpc-js';
import type { PemMaterial, PemSource } from '@weir/security';

/**
 * TLS of a gRPC server. `required`: a client without a certificate the cluster CA signed
 * fails the handshake (data ports). `verified-if-shown`: a client may come without a
 * certificate (the weir CLI, with a token); one it shows must verify, and only then does a
 * call's `getAuthContext().sslPeerCertificate` carry it (the JobManager's port, whose
 * TaskManagerService demands it per call).
 */
export interface ServerTls {
  readonly source: PemSource;
  readonly clientCertificates: 'required' | 'verified-if-shown';
}

/** TLS of a gRPC client: a cluster process shows its node certificate; a CLI may bring only the CA. */
export type ClientTls = { readonly source: PemSource } | { readonly ca: Buffer };

type Provider = grpc.experimental.CertificateProvider;
type CaListener = Parameters<Provider['addCaCertificateListener']>[0];
type IdentityListener = Parameters<Provider['addIdentityCertificateListener']>[0];

/**
 * grpc-js's certificate provider over a PemSource: grpc-js builds the secure context of each
 * new connection from the latest update, so a rotated certificate is used by every connection
 * made after @weir/security re-read it, without a restart.
 */
function certificateProvider(source: PemSource): Provider {
  const caListeners = new Set<CaListener>();
  const identityListeners = new Set<IdentityListener>();
  let stop: (() => void) | undefined;
  const publish = (material: PemMaterial) => {
    for (const listener of caListeners) listener(material.ca === undefined ? null : { caCertificate: material.ca });
    for (const listener of identityListeners) listener({ certificate: material.cert, privateKey: material.key });
  };
  const follow = () => {
    stop ??= source.onChange(publish);
  };
  const unfollow = () => {
    if (caListeners.size > 0 || identityListeners.size > 0) return;
    stop?.();
    stop = undefined;
  };
  return {
    addCaCertificateListener(listener) {
      caListeners.add(listener);
      follow();
      const { ca } = source.current;
      process.nextTick(listener, ca === undefined ? null : { caCertificate: ca });
    },
    removeCaCertificateListener(listener) {
      caListeners.delete(listener);
      unfollow();
    },
    addIdentityCertificateListener(listener) {
      identityListeners.add(listener);
      follow();
      const { cert, key } = source.current;
      process.nextTick(listener, { certificate: cert, privateKey: key });
    },
    removeIdentityCertificateListener(listener) {
      identityListeners.delete(listener);
      unfollow();
    },
  };
}

export function serverCredentials(tls: ServerTls | undefined): grpc.ServerCredentials {
  if (tls === undefined) return grpc.ServerCredentials.createInsecure();
  const provider = certificateProvider(tls.source);
  // One provider for both: it answers the CA and the identity listeners alike.
  return grpc.experimental.createCertificateProviderServerCredentials(provider, provider, tls.clientCertificates === 'required');
}

export function channelCredentials(tls: ClientTls | undefined): grpc.ChannelCredentials {
  if (tls === undefined) return grpc.credentials.createInsecure();
  if ('ca' in tls) return grpc.credentials.createSsl(tls.ca);
  const provider = certificateProvider(tls.source);
  return grpc.experimental.createCertificateProviderChannelCredentials(provider, provider);
}

/** The certificate a call's client showed and the cluster CA verified, or undefined (none, or no TLS). */
export function verifiedPeerCertificate(call: Pick<grpc.ServerUnaryCall<unknown, unknown>, 'getAuthContext'>): { readonly subject: string } | undefined {
  const certificate = call.getAuthContext().sslPeerCertificate;
  if (certificate === undefined) return undefined;
  return { subject: String(certificate.subject?.CN ?? '') };
}
