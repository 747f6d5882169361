#!/usr/bin/env node
// The two `mc` commands the compose file's minio-init runs: `mc alias set <name> <url> <user>
// <secret>` (fails while the server does not answer, so the compose's retry loop waits) and
// `mc mb [--ignore-existing] <name>/<bucket>`. Aliases are kept in ~/.mc-aliases.json.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const file = join(process.env.HOME ?? '/tmp', '.mc-aliases.json');
const aliases = () => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
};

async function main(args) {
  if (args[0] === 'alias' && args[1] === 'set' && args.length === 6) {
    const [, , name, url] = args;
    await fetch(url); // any HTTP answer: the server is up
    writeFileSync(file, JSON.stringify({ ...aliases(), [name]: url }));
    console.log(`Added \`${name}\` successfully.`);
    return;
  }
  if (args[0] === 'mb') {
    const ignoreExisting = args.includes('--ignore-existing');
    const target = args.slice(1).find((a) => !a.startsWith('--'));
    const [name, bucket] = (target ?? '').split('/');
    const url = aliases()[name];
    if (url === undefined || !bucket) throw new Error(`unknown alias or no bucket in ${target}`);
    const res = await fetch(`${url}/${bucket}`, { method: 'PUT' });
    if (res.ok || (res.status === 409 && ignoreExisting)) {
      console.log(`Bucket created successfully \`${name}/${bucket}\`.`);
      return;
    }
    throw new Error(`PUT ${url}/${bucket}: ${res.status} ${await res.text()}`);
  }
  throw new Error(`this stand-in of mc knows only \`alias set\` and \`mb\`, not: ${args.join(' ')}`);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(`mc: ${err.message}`);
  process.exit(1);
});
