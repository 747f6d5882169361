import { describe, expect, it } from 'vitest';
import { parseArgv as parse } from './testing/parse-argv.ts';

const JOB = '0123456789abcdef0123456789abcdef';

describe('weir command line', () => {
  it('parses jobmanager and taskmanager with config options', () => {
    expect(parse(['jobmanager']).calls).toEqual([['jobmanager', { config: undefined, dynamic: {} }]]);
    expect(parse(['taskmanager', '-c', 'conf/weir.yaml', '-D', 'taskmanager.numberOfTaskSlots=4', '-Dtaskmanager.host=tm-1']).calls).toEqual([
      ['taskmanager', { config: 'conf/weir.yaml', dynamic: { 'taskmanager.numberOfTaskSlots': '4', 'taskmanager.host': 'tm-1' } }],
    ]);
  });

  it('keeps everything after the first = in a -D value and lets a later -D win', () => {
    expect(parse(['jobmanager', '-D', 'taskmanager.resource-id=a=b', '-D', 'taskmanager.resource-id=c']).calls).toEqual([
      ['jobmanager', { config: undefined, dynamic: { 'taskmanager.resource-id': 'c' } }],
    ]);
    expect(parse(['jobmanager', '-D', 'taskmanager.resource-id=a=b']).calls[0]![1]).toEqual({
      config: undefined,
      dynamic: { 'taskmanager.resource-id': 'a=b' },
    });
  });

  it('parses run with its options and the job arguments after --', () => {
    expect(parse(['run', 'jobs/wc.ts', '-m', 'jm:7000', '-p', '2', '-d', '--', 'in.txt', '--out', 'dir']).calls).toEqual([
      [
        'run',
        { config: undefined, dynamic: {}, jobManager: 'jm:7000', job: 'jobs/wc.ts', args: ['in.txt', '--out', 'dir'], parallelism: 2, detached: true },
      ],
    ]);
  });

  it('runs attached with no parallelism and no args by default', () => {
    expect(parse(['run', 'job.ts']).calls).toEqual([
      ['run', { config: undefined, dynamic: {}, jobManager: undefined, job: 'job.ts', args: [], parallelism: undefined, detached: false }],
    ]);
    expect(parse(['run', 'job.ts', '--detached']).calls[0]![1]).toMatchObject({ detached: true });
    expect(parse(['run', '--typecheck', 'job.ts']).calls[0]![1]).toMatchObject({ job: 'job.ts', typecheck: true });
    expect(parse(['init', 'my-job', '--tarballs', 'dist']).calls).toEqual([['init', { dir: 'my-job', tarballs: 'dist' }]]);
  });

  it('parses sql -f with parallelism and detached, and sql alone (the interactive client)', () => {
    expect(parse(['sql', '-f', 'q.sql', '-p', '2', '-d']).calls).toEqual([
      ['sql', { config: undefined, dynamic: {}, jobManager: undefined, file: 'q.sql', parallelism: 2, detached: true }],
    ]);
    expect(parse(['sql']).calls).toEqual([['sql', { config: undefined, dynamic: {}, jobManager: undefined, file: undefined, parallelism: undefined, detached: false }]]);
  });

  it('parses list, info and cancel', () => {
    expect(parse(['list', '-m', '[::1]:6123']).calls).toEqual([['list', { config: undefined, dynamic: {}, jobManager: '[::1]:6123' }]]);
    expect(parse(['info', 'abc123']).calls).toEqual([['info', { config: undefined, dynamic: {}, jobManager: undefined, jobId: 'abc123', checkSlots: false }]]);
    expect(parse(['info', 'abc123', '--check-slots']).calls[0]![1]).toMatchObject({ checkSlots: true });
    expect(parse(['cancel', 'abc123', '--jobmanager', 'localhost:6123']).calls).toEqual([
      ['cancel', { config: undefined, dynamic: {}, jobManager: 'localhost:6123', jobId: 'abc123' }],
    ]);
  });

  it('parses checkpoints with a job ID and an optional JobManager', () => {
    expect(parse(['checkpoints', 'abc123', '-m', 'jm:6123']).calls).toEqual([
      ['checkpoints', { config: undefined, dynamic: {}, jobManager: 'jm:6123', jobId: 'abc123' }],
    ]);
    expect(parse(['checkpoints']).error).toBe("commander.missingArgument: error: missing required argument 'jobId'");
  });

  it('parses run from a savepoint, with and without -n, in short and long forms', () => {
    expect(parse(['run', '-s', '/sp/savepoint-abc123-1', 'job.ts', '-d']).calls).toEqual([
      [
        'run',
        {
          config: undefined,
          dynamic: {},
          jobManager: undefined,
          job: 'job.ts',
          args: [],
          parallelism: undefined,
          detached: true,
          restore: { savepointPath: '/sp/savepoint-abc123-1', allowNonRestoredState: false },
        },
      ],
    ]);
    expect(parse(['run', 'job.ts', '--fromSavepoint', 's3://b/sp', '--allowNonRestoredState']).calls[0]![1]).toMatchObject({
      restore: { savepointPath: 's3://b/sp', allowNonRestoredState: true },
    });
    expect(parse(['run', '-s', '/sp', '-n', 'job.ts']).calls[0]![1]).toMatchObject({ restore: { savepointPath: '/sp', allowNonRestoredState: true } });
    expect(parse(['run', 'job.ts']).calls[0]![1]).toHaveProperty('restore', undefined);
  });

  it('parses savepoint: trigger with or without a directory, or dispose', () => {
    expect(parse(['savepoint', JOB, '/data/savepoints', '-m', 'jm:6123']).calls).toEqual([
      ['savepoint', { config: undefined, dynamic: {}, jobManager: 'jm:6123', jobId: JOB, targetDirectory: '/data/savepoints' }],
    ]);
    expect(parse(['savepoint', JOB]).calls).toEqual([['savepoint', { config: undefined, dynamic: {}, jobManager: undefined, jobId: JOB, targetDirectory: undefined }]]);
    expect(parse(['savepoint', '-d', '/data/savepoints/savepoint-abc123-1']).calls).toEqual([
      ['disposeSavepoint', { config: undefined, dynamic: {}, jobManager: undefined, savepointPath: '/data/savepoints/savepoint-abc123-1' }],
    ]);
    expect(parse(['savepoint', '--dispose', 's3://b/sp']).calls).toEqual([
      ['disposeSavepoint', { config: undefined, dynamic: {}, jobManager: undefined, savepointPath: 's3://b/sp' }],
    ]);
  });

  it('parses stop with -p/--savepointPath and -d/--drain', () => {
    expect(parse(['stop', JOB]).calls).toEqual([['stop', { config: undefined, dynamic: {}, jobManager: undefined, jobId: JOB, savepointPath: undefined, drain: false }]]);
    expect(parse(['stop', '--savepointPath', '/sp', '--drain', JOB]).calls).toEqual([
      ['stop', { config: undefined, dynamic: {}, jobManager: undefined, jobId: JOB, savepointPath: '/sp', drain: true }],
    ]);
    expect(parse(['stop', '-p', '/sp', '-d', JOB]).calls).toEqual(parse(['stop', '--savepointPath', '/sp', '--drain', JOB]).calls);
  });

  it('tells the directory of cancel -s from the job ID by its shape', () => {
    const withSavepoint = (jobId: string, targetDirectory: string | undefined) => [
      ['cancelWithSavepoint', { config: undefined, dynamic: {}, jobManager: undefined, jobId, targetDirectory }],
    ];
    expect(parse(['cancel', '-s', '/data/savepoints', JOB]).calls).toEqual(withSavepoint(JOB, '/data/savepoints'));
    expect(parse(['cancel', '--withSavepoint', 's3://b/sp', JOB]).calls).toEqual(withSavepoint(JOB, 's3://b/sp'));
    expect(parse(['cancel', '-s', JOB]).calls).toEqual(withSavepoint(JOB, undefined));
    expect(parse(['cancel', JOB, '-s']).calls).toEqual(withSavepoint(JOB, undefined));
    expect(parse(['cancel', '-s', '-m', 'jm:1', JOB]).calls).toEqual([
      ['cancelWithSavepoint', { config: undefined, dynamic: {}, jobManager: 'jm:1', jobId: JOB, targetDirectory: undefined }],
    ]);
    expect(parse(['cancel', JOB]).calls).toEqual([['cancel', { config: undefined, dynamic: {}, jobManager: undefined, jobId: JOB }]]);
  });

  it('parses cluster start with defaults and overrides', () => {
    expect(parse(['cluster', 'start']).calls).toEqual([
      ['clusterStart', { config: undefined, dynamic: {}, taskManagers: 2, slots: 2, dir: '.weir/cluster' }],
    ]);
    expect(parse(['cluster', 'start', '--taskmanagers', '3', '--slots', '4', '--dir', '/tmp/c', '-c', 'w.yaml', '-D', 'heartbeat.timeout=5s']).calls).toEqual([
      ['clusterStart', { config: 'w.yaml', dynamic: { 'heartbeat.timeout': '5s' }, taskManagers: 3, slots: 4, dir: '/tmp/c' }],
    ]);
  });

  it.each([
    [['run'], "commander.missingArgument: error: missing required argument 'job'"],
    [['run', 'job.ts', '-p', '0'], "commander.invalidArgument: error: option '-p, --parallelism <n>' argument '0' is invalid. expected a whole number of 1 or more"],
    [['list', '-m', 'localhost'], "commander.invalidArgument: error: option '-m, --jobmanager <host:port>' argument 'localhost' is invalid. expected host:port with a port from 0 to 65535, such as localhost:6123"],
    [['list', '-m', 'localhost:70000'], "commander.invalidArgument: error: option '-m, --jobmanager <host:port>' argument 'localhost:70000' is invalid. expected host:port with a port from 0 to 65535, such as localhost:6123"],
    [['jobmanager', '-D', 'novalue'], "commander.invalidArgument: error: option '-D <key=value>' argument 'novalue' is invalid. expected key=value, such as -D jobmanager.rpc.port=6123"],
    [['info'], "commander.missingArgument: error: missing required argument 'jobId'"],
    [['cluster', 'start', '--taskmanagers', 'two'], "commander.invalidArgument: error: option '--taskmanagers <n>' argument 'two' is invalid. expected a whole number of 1 or more"],
    [['savepoints'], "commander.unknownCommand: error: unknown command 'savepoints'"],
    [['savepoint'], "commander.missingArgument: error: missing required argument 'jobId'"],
    [['savepoint', 'abc123', '-d', '/sp/savepoint-abc123-1'], 'commander.conflictingOption: error: -d disposes a savepoint and takes no job ID; give either `weir savepoint <jobId> [targetDirectory]` or `weir savepoint -d <savepointPath>`'],
    [['savepoint', '-d'], "commander.optionMissingArgument: error: option '-d, --dispose <savepointPath>' argument missing"],
    [['stop'], "commander.missingArgument: error: missing required argument 'jobId'"],
    [['stop', '-p'], "commander.optionMissingArgument: error: option '-p, --savepointPath <dir>' argument missing"],
    [['cancel'], "commander.missingArgument: error: missing required argument 'jobId'"],
    [['cancel', '-s'], "commander.missingArgument: error: missing required argument 'jobId'"],
    [['cancel', '-s', '/data/savepoints'], "commander.missingArgument: error: missing required argument 'jobId'"],
    [['run', 'job.ts', '-n'], 'commander.error: error: -n (--allowNonRestoredState) only applies when starting from a savepoint: add -s <savepointPath>'],
    [['list', '--bogus'], "commander.unknownOption: error: unknown option '--bogus'"],
  ])('rejects %j', (argv, expected) => {
    const result = parse(argv);
    expect(result.calls).toEqual([]);
    expect(result.error).toBe(expected);
  });
});
