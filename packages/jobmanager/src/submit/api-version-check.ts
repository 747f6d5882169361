import { WEIR_API_VERSION, apiVersionsCompatible } from '@weir/api';
import { WeirError } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/** `weir run`'s first line of a bundle (the CLI's apiVersionBanner). */
const BANNER = /^\/\* weir-api-version: ([^\s*]{1,64}) \*\//;

/**
 * Refuses a job bundle built against a @weir/api this cluster's is not compatible with, before
 * its code runs: a job built for another major version may call what this one lacks or
 * means otherwise. A bundle without the banner (built by hand, or by an older `weir run`) is
 * let through, as before the banner existed.
 */
export function checkBundleApiVersion(bundle: Buffer, entryName: string, running: string = WEIR_API_VERSION): void {
  const banner = BANNER.exec(bundle.subarray(0, 128).toString('utf8'))?.[1];
  if (banner === undefined || apiVersionsCompatible(banner, running)) return;
  // The client wrote it: quoted, with escapes, unless it looks like a version, so no control character reaches a log or terminal.
  const built = /^[0-9A-Za-z.+-]+$/.test(banner) ? banner : JSON.stringify(banner);
  throw new WeirError(
    JobManagerErrorCode.INCOMPATIBLE_API_VERSION,
    `job ${entryName} was built against @weir/api ${built}, but this cluster runs @weir/api ${running}: rebuild the job against @weir/api ${running} (npm install @weir/api@${running}), or run it on a cluster of version ${built}`,
  );
}
