// A throwaway PostgreSQL on 127.0.0.1 for tests and local use, from Debian's `postgresql` package
// (installed on first use when root with apt-get). A fresh cluster is made with initdb in a temp
// folder (or `dir`), collating by ICU's en-US as operators' clusters usually do by their locale
// (not C: the tests must see a locale's order wherever the schema does not fix one). postgres
// listens on a free loopback port with password (scram) auth for a fixed superuser, and a
// database is created. It prints/returns
//   DATABASE_URL=postgres://parkpatrol:parkpatrol@127.0.0.1:PORT/parkpatrol
//
//   import { start } from './scripts/services/postgres.mjs';
//   const pg = await start();            // { env: { DATABASE_URL }, stop }
//   ...; await pg.stop();                // kills postgres, removes the temp folder
//
//   node scripts/services/postgres.mjs run -- npx vitest run     # start, run, stop
//   node scripts/services/postgres.mjs start | stop               # leave it running in between
//   node scripts/services/postgres.mjs serve                      # until Ctrl-C
//
// postgres refuses to run as root: as root it runs as the system user `parkpatrol-test` (created if
// missing; `nobody` if that fails). With `dir` given, the folder and its cluster are kept after stop
// and reused by the next start; the temp folder of a start without `dir` is removed by stop.
import { chownSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  cli,
  ensureDebianPackages,
  freePort,
  isExecutable,
  isRoot,
  killDaemons,
  run,
  runAsync,
  spawnDaemon,
  tail,
  track,
  untrack,
  waitUntil,
  which,
  workDir,
} from './service-utils.mjs';

export const USER = 'parkpatrol';
export const PASSWORD = 'parkpatrol';
export const DATABASE = 'parkpatrol';
const RUN_AS = 'parkpatrol-test';

/** Folder of initdb/postgres: $PG_BINDIR, else Debian's newest /usr/lib/postgresql/N/bin, else PATH. */
export function findPgBin() {
  const candidates = [];
  if (process.env.PG_BINDIR) candidates.push(process.env.PG_BINDIR);
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => `/usr/lib/postgresql/${v}/bin`));
  }
  const onPath = which('initdb');
  if (onPath) candidates.push(join(onPath, '..'));
  return candidates.find((dir) => isExecutable(join(dir, 'initdb')) && isExecutable(join(dir, 'postgres'))) ?? null;
}

function lookupUser(name) {
  try {
    return { user: name, uid: Number(run('id', ['-u', name]).trim()), gid: Number(run('id', ['-g', name]).trim()) };
  } catch {
    return null;
  }
}

/** The unprivileged account postgres runs as when we are root (null when we are not root). */
function runAsUser() {
  if (!isRoot) return null;
  let account = lookupUser(RUN_AS);
  if (!account) {
    try {
      run('useradd', [
        '--system',
        '--user-group',
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        '/usr/sbin/nologin',
        RUN_AS,
      ]);
      account = lookupUser(RUN_AS);
    } catch {
      /* fall back to nobody below */
    }
  }
  return account ?? lookupUser('nobody');
}

// Runs a short command as `as` (when root) via setpriv, as the daemons are.
function asArgs(as, command, args) {
  if (!as) return [command, args];
  return ['setpriv', [`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups', '--', command, ...args]];
}

/**
 * Starts PostgreSQL. Options: `dir` (kept, cluster reused), `port` (default: a free one).
 * `detached` is for the `start` command: postgres then outlives this process.
 */
export async function start({ dir, port, detached = false } = {}) {
  ensureDebianPackages({ what: 'PostgreSQL (initdb)', packages: ['postgresql'], present: () => Boolean(findPgBin()) });
  const bin = findPgBin();
  const as = runAsUser();
  const work = workDir(dir, 'parkpatrol-pg-');
  const data = join(work.dir, 'data');
  const logFile = join(work.dir, 'postgres.log');
  if (as) {
    chownSync(work.dir, as.uid, as.gid);
    if (existsSync(data) && statSync(data).uid !== as.uid) run('chown', ['-R', `${as.uid}:${as.gid}`, data]);
  }
  const service = { daemons: [], removeDir: work.temporary ? work.dir : null };
  try {
    const fresh = !existsSync(join(data, 'PG_VERSION'));
    if (fresh) {
      const pwfile = join(work.dir, 'pwfile');
      writeFileSync(pwfile, `${PASSWORD}\n`, { mode: 0o600 });
      if (as) chownSync(pwfile, as.uid, as.gid);
      const [cmd, args] = asArgs(as, join(bin, 'initdb'), [
        '-D',
        data,
        '-U',
        USER,
        `--pwfile=${pwfile}`,
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C.UTF-8',
        '--locale-provider=icu',
        '--icu-locale=en-US',
        '--no-sync',
      ]);
      try {
        run(cmd, args, { cwd: work.dir });
      } finally {
        rmSync(pwfile, { force: true });
      }
    }

    let postgres;
    for (let attempt = 1; ; attempt++) {
      const chosen = port ?? (await freePort());
      const offset = existsSync(logFile) ? readFileSync(logFile).length : 0;
      // If orphaned (we died, even by SIGKILL) postgres gets SIGQUIT: an immediate shutdown that
      // still removes its SysV shared memory segment, which SIGKILL would leak.
      postgres = spawnDaemon(
        'postgres',
        join(bin, 'postgres'),
        [
          '-D',
          data,
          '-c',
          'listen_addresses=127.0.0.1',
          '-p',
          String(chosen),
          '-c',
          'unix_socket_directories=', // TCP only: no socket in /var/run/postgresql needed
          '-c',
          'fsync=off',
          '-c',
          'synchronous_commit=off',
          '-c',
          'full_page_writes=off', // throwaway data
          '-c',
          'dynamic_shared_memory_type=mmap', // in the data folder, not /dev/shm
        ],
        { logFile, cwd: work.dir, as, detached, signal: detached ? 'SIGINT' : undefined, orphanSignal: 'QUIT' },
      );
      service.daemons = [postgres];
      if (!detached) track(service);
      const log = () => readFileSync(logFile, 'utf8').slice(offset);
      try {
        await waitUntil('postgres to be ready', () => log().includes('ready to accept connections'), {
          daemons: [postgres],
          logFile,
          timeoutMs: 30_000,
        });
        port = chosen;
        break;
      } catch (err) {
        // Another process took the port between freePort() and postgres binding it: try another.
        if (port === undefined && attempt < 3 && /could not (bind|create listen)/.test(log())) {
          await killDaemons([postgres]);
          continue;
        }
        throw err;
      }
    }

    const env = { ...process.env, PGPASSWORD: PASSWORD };
    const conn = ['-h', '127.0.0.1', '-p', String(port), '-U', USER];
    const exists =
      !fresh &&
      (
        await runAsync(join(bin, 'psql'), [...conn, '-d', 'postgres', '-tAc', `SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'`], {
          env,
        })
      ).trim() === '1';
    if (!exists) await runAsync(join(bin, 'createdb'), [...conn, DATABASE], { env });

    const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
    let stopped = false;
    return {
      env: { DATABASE_URL: url },
      dir: work.dir,
      logFile,
      daemons: service.daemons,
      async stop() {
        if (stopped) return;
        stopped = true;
        // SIGQUIT: immediate shutdown for a throwaway cluster; SIGINT (fast, clean) for a kept one.
        await killDaemons(service.daemons, { signal: work.temporary ? 'SIGQUIT' : 'SIGINT', graceMs: 10_000 });
        untrack(service);
        if (work.temporary) rmSync(work.dir, { recursive: true, force: true, maxRetries: 3 });
      },
    };
  } catch (err) {
    await killDaemons(service.daemons, { signal: 'SIGQUIT' });
    untrack(service);
    if (work.temporary) rmSync(work.dir, { recursive: true, force: true, maxRetries: 3 });
    if (err instanceof Error && !err.message.includes('--- last lines')) err.message += tail(logFile);
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await cli({ name: 'postgres', start, defaultDir: join(tmpdir(), 'parkpatrol-postgres') });
}
