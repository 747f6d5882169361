import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WeirError, type WeirConfig } from '@weir/common';
import { JobManagerErrorCode } from '../errors.ts';

/** The keys whose directories a client may name. */
const KEYS = 'state.savepoints.dir, state.checkpoints.dir, state.savepoints.allowed-dirs';

/** A place as compared: a URL's scheme and segments (s3://bucket/key…), or an absolute local path with symbolic links resolved. */
type Place = { readonly kind: 'url'; readonly scheme: string; readonly segments: readonly string[] } | { readonly kind: 'local'; readonly path: string };

/**
 * The directories below which a client may have the JobManager write a savepoint (trigger,
 * stop and cancel with a savepoint), read one (`weir run -s`) or delete one (`weir savepoint
 * -d`): state.savepoints.dir, state.checkpoints.dir (retained checkpoints) and the
 * comma-separated state.savepoints.allowed-dirs. Flink takes any path its processes can reach;
 * here a client who may submit a job may not thereby read /etc or delete another team's data.
 * Paths are compared after `..` and symbolic links are resolved, s3:// by bucket and key
 * segments; a path with `..` segments is refused outright. The job's own checkpoint
 * directory (its state backend's, or -D state.checkpoints.dir) is confined the same way.
 *
 * `check` returns the place to use from then on: a local path with its links resolved, so
 * that a link swapped after the check (to /etc, say) does not redirect what is then read,
 * written or deleted; what remains open is a directory on the resolved path being replaced
 * by a link, which takes write access below an allowed root.
 */
export class AllowedPaths {
  constructor(
    /** The roots as configured, for messages. */
    readonly roots: readonly string[],
  ) {}

  static fromConfig(config: WeirConfig): AllowedPaths {
    const configured = [config['state.savepoints.dir'], config['state.checkpoints.dir'], ...config['state.savepoints.allowed-dirs'].split(',')];
    return new AllowedPaths([...new Set(configured.map((root) => root.trim()).filter((root) => root !== ''))]);
  }

  /**
   * Throws PATH_NOT_ALLOWED, naming the allowed roots, unless `path` is one of them or below
   * one; returns what to open instead of `path`: the resolved local path, or the URL as given.
   */
  async check(what: string, path: string): Promise<string> {
    const place = await placeOf(path);
    for (const root of this.roots) {
      if (place !== undefined && within(place, await placeOf(root))) return place.kind === 'local' ? place.path : path;
    }
    throw this.#refusal(what, path);
  }

  #refusal(what: string, path: string): WeirError {
    if (this.roots.length === 0) {
      return new WeirError(
        JobManagerErrorCode.PATH_NOT_ALLOWED,
        `${what} ${path} is refused: this JobManager allows no directory for savepoints or checkpoints; set state.savepoints.dir or state.checkpoints.dir (or list directories in state.savepoints.allowed-dirs) in its configuration`,
      );
    }
    return new WeirError(
      JobManagerErrorCode.PATH_NOT_ALLOWED,
      `${what} ${path} is outside the directories this JobManager allows: ${this.roots.join(', ')} (${KEYS}); give a path below one of them`,
    );
  }
}

async function placeOf(location: string): Promise<Place | undefined> {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(location)?.[1];
  if (scheme !== undefined && scheme !== 'file') {
    const segments = location.slice(scheme.length + 3).split('/').filter((s) => s !== '' && s !== '.');
    if (segments.length === 0 || segments.includes('..')) return undefined;
    return { kind: 'url', scheme, segments };
  }
  let path: string;
  try {
    path = scheme === 'file' || location.startsWith('file:') ? fileURLToPath(location) : location;
  } catch {
    return undefined;
  }
  if (path.split(/[\\/]/).includes('..')) return undefined;
  return { kind: 'local', path: await realPathOf(isAbsolute(path) ? path : resolve(process.cwd(), path)) };
}

/** `path` with the symbolic links of its longest existing ancestor resolved: a link below a root may lead anywhere. */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realPathOf(parent), basename(path));
  }
}

function within(place: Place, root: Place | undefined): boolean {
  if (root === undefined) return false;
  if (place.kind === 'url' || root.kind === 'url') {
    // s3://bucket/a/b: the bucket is the first segment, so another bucket never matches.
    return place.kind === 'url' && root.kind === 'url' && place.scheme === root.scheme && root.segments.every((segment, i) => place.segments[i] === segment);
  }
  return place.path === root.path || place.path.startsWith(root.path.endsWith(sep) ? root.path : root.path + sep);
}
