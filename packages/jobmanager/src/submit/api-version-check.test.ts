import { describe, expect, it } from 'vitest';
import { apiVersionsCompatible } from '@weir/api';
import { checkBundleApiVersion } from './api-version-check.ts';

const bundle = (version: string) => Buffer.from(`/* weir-api-version: ${version} */\n"use strict";\nmodule.exports = {};`);

describe('checkBundleApiVersion', () => {
  it('lets through a bundle of the same major (0.x: same minor) and one without a banner', () => {
    expect(() => checkBundleApiVersion(bundle('1.4.2'), 'job.ts', '1.0.0')).not.toThrow();
    expect(() => checkBundleApiVersion(bundle('0.1.7'), 'job.ts', '0.1.0')).not.toThrow();
    expect(() => checkBundleApiVersion(Buffer.from('module.exports = {};'), 'job.ts', '0.1.0')).not.toThrow();
  });

  it('refuses another major with a message naming both versions', () => {
    expect(() => checkBundleApiVersion(bundle('2.0.0'), 'job.ts', '1.3.0')).toThrow(
      expect.objectContaining({ code: 'INCOMPATIBLE_API_VERSION', message: expect.stringContaining('built against @weir/api 2.0.0, but this cluster runs @weir/api 1.3.0') }),
    );
    expect(() => checkBundleApiVersion(bundle('0.2.0'), 'job.ts', '0.1.0')).toThrow(expect.objectContaining({ code: 'INCOMPATIBLE_API_VERSION' }));
  });

  it('treats an unparsable version as incompatible, and quotes what the client wrote', () => {
    expect(apiVersionsCompatible('latest', '1.0.0')).toBe(false);
    expect(() => checkBundleApiVersion(bundle('1.0\u001b[2J'), 'job.ts', '1.0.0')).toThrow(
      expect.objectContaining({ code: 'INCOMPATIBLE_API_VERSION', message: expect.stringContaining('built against @weir/api "1.0\\u001b[2J", but') }),
    );
  });
});
