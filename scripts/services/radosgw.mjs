// Throwaway S3-compatible storage on 127.0.0.1 for tests and local use: Debian's radosgw (Ceph's
// object gateway) on a single-node Ceph cluster — one monitor, one OSD on memstore (objects in RAM,
// no disks), pools of size 1, cephx off — all in a temp folder (or `dir`). Debian's radosgw,
// ceph-mon and ceph-osd are installed on first use when root with apt-get. An S3 user with fixed
// keys and a bucket are created. It prints/returns
//   AWS_ACCESS_KEY_ID=parkpatrol-test  AWS_SECRET_ACCESS_KEY=parkpatrol-test-secret
//   AWS_REGION=us-east-1  AWS_ENDPOINT_URL_S3=http://127.0.0.1:PORT
//   S3_BUCKET=parkpatrol-evidence  EVIDENCE_STORE=s3://parkpatrol-evidence
// Clients must use path-style addressing (forcePathStyle: true in @aws-sdk/client-s3).
//
//   import { start } from './scripts/services/radosgw.mjs';
//   const s3 = await start();            // { env, stop }
//   ...; await s3.stop();                // kills the daemons, removes the temp folder
//
//   node scripts/services/radosgw.mjs run -- npx vitest run      # start, run, stop
//   node scripts/services/radosgw.mjs start | stop                # leave it running in between
//   node scripts/services/radosgw.mjs serve                       # until Ctrl-C
//
// Stored objects live in the OSD's memory and are gone after stop, `dir` or not; with `dir` the
// folder (config and logs) is kept after stop for inspection and wiped by the next start.
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cli,
  ensureDebianPackages,
  freePort,
  killDaemons,
  runAsync,
  spawnDaemon,
  tail,
  track,
  untrack,
  waitForPort,
  which,
  workDir,
} from './service-utils.mjs';

export const ACCESS_KEY = 'parkpatrol-test';
export const SECRET_KEY = 'parkpatrol-test-secret';
export const REGION = 'us-east-1';
export const BUCKET = 'parkpatrol-evidence';

const BINARIES = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph', 'monmaptool'];
// radosgw-admin and the ceph CLI come with ceph-common, monmaptool with ceph-base: dependencies.
const PACKAGES = ['radosgw', 'ceph-mon', 'ceph-osd'];

// What we create in the folder: wiped before a start in a reused `dir`.
const ENTRIES = ['ceph.conf', 'mon.a', 'osd.0', 'rgw', 'run', 'log', 'crash', 'parkpatrol-service.json'];

function cephConf({ dir, fsid, monPort, rgwPort, memstoreBytes }) {
  return `# Throwaway single-node Ceph for tests (scripts/services/radosgw.mjs); not for real data.
[global]
fsid = ${fsid}
mon host = [v2:127.0.0.1:${monPort}]
public addr = 127.0.0.1
public network = 127.0.0.0/8
# msgr2 only: one port per daemon, no legacy v1 listeners.
ms bind msgr1 = false
# No cephx: anyone on loopback may talk to this cluster.
auth cluster required = none
auth service required = none
auth client required = none
# radosgw asks for "secure" mode to the monitors by default, which auth "none" cannot give:
# without crc here it loops on "get_initial_auth_request returned -13" until it times out.
ms mon client mode = crc secure
mon warn on insecure global id reclaim allowed = false
# Everything under this folder, nothing in /var/lib/ceph, /var/log/ceph or /var/run/ceph.
run dir = ${dir}/run
crash dir = ${dir}/crash
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
mon cluster log to file = false
# One OSD in RAM, so pools of size 1, few placement groups, no autoscaler (no mgr either).
osd objectstore = memstore
memstore device bytes = ${memstoreBytes}
osd crush chooseleaf type = 0
osd crush initial weight = 1
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
# The folder may be on a nearly full disk; memstore does not use it anyway.
mon data avail warn = 1
mon data avail crit = 0
# Pool creation is a monitor commit each; commit faster than the 1 s default.
paxos propose interval = 0.05
paxos min wait = 0.01

[mon]
mon data = ${dir}/mon.$id

[osd]
osd data = ${dir}/osd.$id

[client]
# The ceph CLI and radosgw-admin run many times with the same name: one socket each.
admin socket = ${dir}/run/$name.$pid.asok
log file = ${dir}/log/$name.$pid.log

[client.rgw]
admin socket = ${dir}/run/$name.asok
log file = ${dir}/log/$name.log
rgw data = ${dir}/rgw
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw dynamic resharding = false
rgw enable usage log = false
`;
}

// Minimal AWS Signature V4 for the one call we make before handing over (PUT bucket), so this
// script needs no npm package.
function signedRequest({ method, port, path, body = '' }) {
  const amzDate = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const host = `127.0.0.1:${port}`;
  const payloadHash = createHash('sha256').update(body).digest('hex');
  const signedHeaders = 'host;x-amz-content-sha256;x-amz-date';
  const canonical = [
    method,
    path,
    '',
    `host:${host}`,
    `x-amz-content-sha256:${payloadHash}`,
    `x-amz-date:${amzDate}`,
    '',
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${REGION}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const hmac = (key, data) => createHmac('sha256', key).update(data).digest();
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET_KEY}`, day), REGION), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  const headers = {
    host,
    'x-amz-content-sha256': payloadHash,
    'x-amz-date': amzDate,
    authorization: `AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    'content-length': Buffer.byteLength(body),
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Starts the cluster and radosgw. Options: `dir` (kept after stop), `bucket`, `memstoreBytes`
 * (capacity the OSD reports; objects take RAM as they are stored). `detached` is for the `start`
 * command: the daemons then outlive this process.
 */
export async function start({ dir, bucket = BUCKET, memstoreBytes = 1024 ** 3, detached = false } = {}) {
  ensureDebianPackages({ what: 'Ceph radosgw', packages: PACKAGES, present: () => BINARIES.every((b) => which(b)) });
  const work = workDir(dir, 'parkpatrol-rgw-');
  if (!work.temporary) {
    const foreign = readdirSync(work.dir).filter((e) => !ENTRIES.includes(e));
    if (foreign.length)
      throw new Error(`${work.dir} has files this script did not make (${foreign.join(', ')}): give an empty or new folder.`);
    for (const entry of ENTRIES) rmSync(join(work.dir, entry), { recursive: true, force: true });
  }
  const d = work.dir;
  for (const sub of ['mon.a', 'osd.0', 'rgw', 'run', 'log', 'crash']) mkdirSync(join(d, sub), { recursive: true });
  const monPort = await freePort();
  let rgwPort = await freePort();
  while (rgwPort === monPort) rgwPort = await freePort();
  const conf = join(d, 'ceph.conf');
  const fsid = randomUUID();
  writeFileSync(conf, cephConf({ dir: d, fsid, monPort, rgwPort, memstoreBytes }));
  const c = ['-c', conf];
  // SIGKILL to stop: nothing to keep (memstore), and it skips memstore dumping its RAM to disk.
  const daemon = (name, command, args) =>
    spawnDaemon(name, command, args, { logFile: join(d, 'log', `${name}.stderr.log`), cwd: d, detached, signal: 'SIGKILL' });
  const service = { daemons: [], removeDir: work.temporary ? d : null };
  if (!detached) track(service);

  try {
    // Monitor: a monmap naming it at our port (mkfs alone would take the default 3300), no keyring.
    const monmap = join(d, 'run', 'monmap');
    await runAsync('monmaptool', ['--create', '--fsid', fsid, '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, monmap]);
    await runAsync('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', monmap]);
    const mon = daemon('ceph-mon', 'ceph-mon', [...c, '-f', '-i', 'a']);
    service.daemons.push(mon);
    await waitForPort(monPort, { daemons: [mon], logFile: join(d, 'log', 'mon.a.log'), timeoutMs: 30_000 });

    // OSD 0: registered with the monitor while its memstore is made.
    const uuid = randomUUID();
    await Promise.all([
      runAsync('ceph', [...c, '--connect-timeout', '20', 'osd', 'new', uuid, '0'], { timeoutMs: 30_000 }),
      runAsync('ceph-osd', [...c, '--mkfs', '-i', '0', '--osd-uuid', uuid]),
    ]);
    const osd = daemon('ceph-osd', 'ceph-osd', [...c, '-f', '-i', '0']);
    service.daemons.push(osd);

    // radosgw creates its pools (waiting for the OSD) and then listens.
    const rgw = daemon('radosgw', 'radosgw', [...c, '-f', '-n', 'client.rgw', '--rgw-init-timeout', '60']);
    service.daemons.push(rgw);
    await waitForPort(rgwPort, { daemons: [mon, osd, rgw], logFile: join(d, 'log', 'client.rgw.log'), timeoutMs: 90_000 });

    await runAsync('radosgw-admin', [
      ...c,
      'user',
      'create',
      '--uid',
      'parkpatrol',
      '--display-name',
      'ParkPatrol tests',
      '--access-key',
      ACCESS_KEY,
      '--secret',
      SECRET_KEY,
    ]);
    const created = await signedRequest({ method: 'PUT', port: rgwPort, path: `/${bucket}` });
    if (created.status !== 200 && !created.body.includes('BucketAlreadyOwnedByYou')) {
      throw new Error(`Creating bucket ${bucket} failed: HTTP ${created.status} ${created.body}`);
    }

    let stopped = false;
    return {
      env: {
        AWS_ACCESS_KEY_ID: ACCESS_KEY,
        AWS_SECRET_ACCESS_KEY: SECRET_KEY,
        AWS_REGION: REGION,
        AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${rgwPort}`,
        S3_BUCKET: bucket,
        EVIDENCE_STORE: `s3://${bucket}`,
      },
      dir: d,
      daemons: service.daemons,
      async stop() {
        if (stopped) return;
        stopped = true;
        await killDaemons(service.daemons);
        untrack(service);
        if (work.temporary) rmSync(d, { recursive: true, force: true, maxRetries: 3 });
      },
    };
  } catch (err) {
    await killDaemons(service.daemons, { signal: 'SIGKILL' });
    untrack(service);
    const logs = ['mon.a.log', 'osd.0.log', 'client.rgw.log'].map((f) => join(d, 'log', f)).filter(existsSync);
    if (err instanceof Error && !err.message.includes('--- last lines')) err.message += logs.map((f) => tail(f, 10)).join('');
    if (work.temporary) rmSync(d, { recursive: true, force: true, maxRetries: 3 });
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await cli({ name: 'radosgw', start, defaultDir: join(tmpdir(), 'parkpatrol-radosgw') });
}
