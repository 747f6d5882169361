import { describe, expect, it } from 'vitest';
import { explainDenial } from './sandbox.ts';

describe('explainDenial', () => {
  it("names the key to change where Node's permission model refused a file, and leaves other failures as they are", () => {
    expect(explainDenial('cannot read file source path /data/in.txt: Access to this API has been restricted [IO_ERROR]')).toBe(
      "cannot read file source path /data/in.txt: Access to this API has been restricted (a job's code on the JobManager, its main and its split enumerators, reads only Weir's code and the directories of jobmanager.user-code.read-paths: add the directory it reads to that key, comma-separated) [IO_ERROR]",
    );
    expect(explainDenial('cannot read file source path /data/in.txt: ENOENT')).toBe('cannot read file source path /data/in.txt: ENOENT');
  });
});
