export { startEtcd, etcdBinary, type EtcdServer, type EtcdServerOptions } from './etcd-server.ts';
export { RecordingContender } from './contender.ts';
