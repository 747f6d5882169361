#!/usr/bin/env node
// `minio server <dir> [--console-address …]`: s3rver on :9000 storing in <dir>, accepting the
// root credentials (s3rver's account registry holds the key pairs it verifies signatures with).
'use strict';
const S3rver = require('/opt/s3/node_modules/s3rver');
const { DUMMY_ACCOUNT } = require('/opt/s3/node_modules/s3rver/lib/models/account');

const [command, directory] = process.argv.slice(2);
if (command !== 'server' || directory === undefined) {
  console.error('usage: minio server <directory> (this stand-in has no other command)');
  process.exit(2);
}
const user = process.env.MINIO_ROOT_USER ?? 'minioadmin';
DUMMY_ACCOUNT.createKeyPair(user, process.env.MINIO_ROOT_PASSWORD ?? 'minioadmin');
// Path-style requests only (the compose file sets WEIR_S3_PATH_STYLE_ACCESS): s3rver would
// otherwise read the host name of http://minio:9000 as a bucket.
new S3rver({ address: '0.0.0.0', port: 9000, directory, silent: true, vhostBuckets: false })
  .run()
  .then(() => console.log(`S3 (s3rver) on :9000, data in ${directory}, access key ${user}`))
  .catch((err) => {
    console.error(err);
    process.exit(1);
  });
process.on('SIGTERM', () => process.exit(0));
