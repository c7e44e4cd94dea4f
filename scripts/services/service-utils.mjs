// Shared plumbing for the real-server scripts in this folder (postgres.mjs, radosgw.mjs):
// Debian package install on demand, free loopback ports, waiting for a port or a log line,
// spawning daemons that die with us, and the start|stop|run|serve command line.
import { spawn, spawnSync } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdtempSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when `file` exists and is executable. */
export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Absolute path of `name` on PATH (or in the usual sbin folders), else null. */
export function which(name) {
  const dirs = [...(process.env.PATH ?? '').split(':'), '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  for (const dir of dirs) if (dir && isExecutable(join(dir, name))) return join(dir, name);
  return null;
}

/**
 * Makes sure Debian `packages` are installed, judged by `present()`. As root with apt-get, installs
 * them (apt-get install first, apt-get update and again only if that fails, so a warm machine pays
 * no update); otherwise throws one line naming the exact command to run.
 */
export function ensureDebianPackages({ what, packages, present }) {
  if (present()) return false;
  const command = `apt-get install -y --no-install-recommends ${packages.join(' ')}`;
  if (!isRoot || !existsSync('/usr/bin/apt-get')) {
    throw new Error(`${what} not found: install Debian's packages with \`${isRoot ? '' : 'sudo '}${command}\`.`);
  }
  // A notice, not an error: written straight to stderr, since the test setup fails a test that
  // calls console.error, and a fresh machine installs these from inside the first test using them.
  process.stderr.write(`Installing Debian's ${packages.join(' ')} for ${what} (one time)...\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Wait for a concurrent apt/dpkg run (another engineer, CI's chromium install) instead of failing.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  const args = [...lock, 'install', '-y', '-qq', '--no-install-recommends', ...packages];
  const first = spawnSync('apt-get', args, { env, encoding: 'utf8' });
  if (first.status !== 0) {
    const update = spawnSync('apt-get', [...lock, 'update', '-qq'], { env, encoding: 'utf8' });
    const again = spawnSync('apt-get', args, { env, encoding: 'utf8' });
    if (again.status !== 0) {
      throw new Error(`\`${command}\` failed:\n${update.stderr ?? ''}${again.stdout ?? ''}${again.stderr ?? ''}`);
    }
  }
  if (!present()) throw new Error(`${what} still missing after \`${command}\`.`);
  return true;
}

/**
 * The one copy lives in ../test-support.ts, shared with the tests that start servers. It is
 * loaded when first asked for, not imported: `npm test` imports this module under a fresh
 * machine's own Node, before it switches to the project's Node, and only that one runs .ts files.
 */
export async function freePort() {
  const { freePort: pick } = await import('../test-support.ts');
  return pick();
}

function canConnect(port, host) {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

/**
 * Polls until `check()` returns a truthy value. Fails early, with the tail of `logFile`, when one
 * of `daemons` has exited; fails after `timeoutMs` otherwise.
 */
export async function waitUntil(what, check, { timeoutMs = 30_000, intervalMs = 50, daemons = [], logFile } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    const dead = daemons.find((d) => d.exited);
    if (dead) throw new Error(`${dead.name} exited (${dead.exited}) while waiting for ${what}.${tail(dead.logFile ?? logFile)}`);
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.${tail(logFile)}`);
    await sleep(intervalMs);
  }
}

export function waitForPort(port, options = {}) {
  return waitUntil(`127.0.0.1:${port} to accept connections`, () => canConnect(port, '127.0.0.1'), options);
}

/** The last lines of a log file, for error messages. */
export function tail(file, lines = 25) {
  if (!file || !existsSync(file)) return '';
  const text = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  return `\n--- last lines of ${file} ---\n${text}`;
}

/** Runs a short command to completion; throws with its output when it fails. */
export function run(command, args, { env, cwd, input, timeoutMs = 120_000 } = {}) {
  const result = spawnSync(command, args, { env: env ?? process.env, cwd, input, encoding: 'utf8', timeout: timeoutMs });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/** Like run(), but without blocking the event loop (other daemons' exits are still noticed). */
export function runAsync(command, args, { env, cwd, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: env ?? process.env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')}: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${command} ${args.join(' ')} exited ${code ?? signal}:\n${out}`));
    });
  });
}

const hasSetpriv = Boolean(which('setpriv'));

/**
 * Starts a long-running daemon in the foreground of its own, output appended to `logFile`.
 * Attached (default): util-linux `setpriv --pdeathsig` makes the kernel send it `orphanSignal`
 * (default KILL) if this Node process dies, even by SIGKILL; `as` ({ uid, gid }) switches user in
 * the same exec.
 * Detached: it outlives us (for `start` from the shell); its pid goes into the state file.
 */
export function spawnDaemon(name, command, args, { logFile, env, cwd, as, detached = false, signal, orphanSignal = 'KILL' }) {
  const fd = openSync(logFile, 'a');
  let file = command;
  let argv = args;
  if (hasSetpriv && (as || !detached)) {
    const prefix = ['setpriv'];
    if (as) prefix.push(`--reuid=${as.uid}`, `--regid=${as.gid}`, '--clear-groups');
    if (!detached) prefix.push('--pdeathsig', orphanSignal);
    file = prefix[0];
    argv = [...prefix.slice(1), '--', command, ...args];
  } else if (as) {
    file = 'runuser';
    argv = ['-u', as.user, '--', command, ...args];
  }
  const child = spawn(file, argv, { env: env ?? process.env, cwd, detached, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  // `signal`: how killDaemons() stops it, unless told otherwise.
  const daemon = { name, program: basename(command), pid: child.pid, signal, orphanSignal, logFile, exited: null, child };
  child.on('exit', (code, signal) => (daemon.exited = signal ?? `code ${code}`));
  child.on('error', (err) => (daemon.exited = err.message));
  if (detached) child.unref();
  return daemon;
}

// Running (a zombie, exited but not yet reaped by its new parent, counts as gone).
export function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Signals each daemon (its own `signal`, else `signal`), waits up to `graceMs`, then SIGKILLs what is left. */
export async function killDaemons(daemons, { signal = 'SIGTERM', graceMs = 5000 } = {}) {
  const live = daemons.filter((d) => d.pid && (d.child ? !d.exited : alive(d.pid)));
  for (const d of live) {
    try {
      process.kill(d.pid, d.signal ?? signal);
    } catch {
      /* already gone */
    }
  }
  const gone = (d) => (d.child ? d.exited : !alive(d.pid));
  const deadline = Date.now() + graceMs;
  while (live.some((d) => !gone(d)) && Date.now() < deadline) await sleep(25);
  for (const d of live.filter((x) => !gone(x))) {
    try {
      process.kill(d.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  while (live.some((d) => !gone(d)) && Date.now() < deadline + 2000) await sleep(25);
}

// Services started attached by this process: killed and cleaned up if we exit or are signalled
// without calling stop() (a crashed test run must not leave daemons behind).
const live = new Set();

function killAllNow() {
  for (const service of live) {
    for (const d of service.daemons) {
      try {
        if (!d.exited) process.kill(d.pid, `SIG${d.orphanSignal ?? 'KILL'}`);
      } catch {
        /* already gone */
      }
    }
    if (service.removeDir) rmSync(service.removeDir, { recursive: true, force: true });
  }
  live.clear();
}

function onSignal(signal) {
  killAllNow();
  // Let whoever else listens handle the signal; with no one else, die of it as we would have.
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

export function track(service) {
  if (live.size === 0) {
    process.once('exit', killAllNow);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onSignal);
  }
  live.add(service);
}

export function untrack(service) {
  live.delete(service);
  if (live.size === 0) {
    process.off('exit', killAllNow);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(signal, onSignal);
  }
}

/**
 * `dir` as given (created if missing, kept after stop), or a new temp folder (removed by stop).
 * Temp folders record the pid that made them; those of processes that died without cleaning up
 * (SIGKILL) are removed here, by the next start.
 */
export function workDir(dir, prefix) {
  if (dir) {
    mkdirSync(dir, { recursive: true });
    return { dir, temporary: false };
  }
  removeStaleTempDirs(prefix);
  const made = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(made, OWNER_FILE), String(process.pid));
  return { dir: made, temporary: true };
}

const OWNER_FILE = 'owner.pid';

function removeStaleTempDirs(prefix) {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(prefix)) continue;
    const path = join(tmpdir(), entry);
    try {
      const owner = Number(readFileSync(join(path, OWNER_FILE), 'utf8'));
      if (owner && !alive(owner)) rmSync(path, { recursive: true, force: true });
    } catch {
      /* no owner file (yet): not ours to judge */
    }
  }
}

export const formatEnv = (env) =>
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

/**
 * The command line shared by the service scripts:
 *   start [--dir DIR]    start detached, print KEY=VALUE lines, leave it running
 *   stop  [--dir DIR]    stop what `start` left running in DIR (default: the service's fixed folder)
 *   serve [--dir DIR]    start, print the env, run until Ctrl-C
 *   run [--dir DIR] -- COMMAND...   start, run COMMAND with the env set, stop; exits with its code
 */
export async function cli({ name, start, defaultDir, stateFile = 'parkpatrol-service.json' }) {
  const argv = process.argv.slice(2);
  const mode = argv[0];
  const dashDash = argv.indexOf('--');
  const own = dashDash === -1 ? argv.slice(1) : argv.slice(1, dashDash);
  const dirFlag = own.indexOf('--dir');
  const dir = dirFlag === -1 ? undefined : own[dirFlag + 1];
  const usage = `usage: node scripts/services/${name}.mjs start|stop|serve [--dir DIR] | run [--dir DIR] -- COMMAND [ARGS...]`;
  try {
    if (mode === 'start') {
      const target = dir ?? defaultDir;
      const file = join(target, stateFile);
      if (existsSync(file)) {
        const state = JSON.parse(readFileSync(file, 'utf8'));
        if (state.daemons.every((d) => sameProcess(d))) {
          console.error(`${name} already running in ${target}.`);
          console.log(formatEnv(state.env));
          return;
        }
        await killDaemons(state.daemons.filter((d) => sameProcess(d)));
        rmSync(file, { force: true });
      }
      const service = await start({ dir: target, detached: true });
      const daemons = service.daemons.map(({ name: n, program, pid, signal }) => ({ name: n, program, pid, signal }));
      writeFileSync(file, JSON.stringify({ name, daemons, env: service.env }, null, 2));
      console.log(formatEnv(service.env));
    } else if (mode === 'stop') {
      const target = dir ?? defaultDir;
      const file = join(target, stateFile);
      if (!existsSync(file)) {
        console.error(`No ${name} started in ${target} (no ${stateFile}).`);
        process.exitCode = 1;
        return;
      }
      const state = JSON.parse(readFileSync(file, 'utf8'));
      await killDaemons(
        state.daemons.filter((d) => sameProcess(d)),
        { graceMs: 5000 },
      );
      if (!dir) rmSync(target, { recursive: true, force: true });
      else rmSync(file, { force: true });
      console.error(`${name} stopped.`);
    } else if (mode === 'serve') {
      const service = await start({ dir });
      console.log(formatEnv(service.env));
      console.error(`${name} running; Ctrl-C stops it.`);
      await new Promise((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await service.stop();
    } else if (mode === 'run' && dashDash !== -1 && argv.length > dashDash + 1) {
      const service = await start({ dir });
      const [command, ...args] = argv.slice(dashDash + 1);
      const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...service.env } });
      const forward = (signal) => child.kill(signal);
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      const code = await new Promise((resolve) => {
        child.on('error', (err) => {
          console.error(`${command}: ${err.message}`);
          resolve(127);
        });
        child.on('exit', (c, signal) => resolve(c ?? 128 + (signal === 'SIGINT' ? 2 : 15)));
      });
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      await service.stop();
      process.exitCode = code;
    } else {
      console.error(usage);
      process.exitCode = 2;
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  }
}

// A pid from an old state file is only ours if that process still runs the same program.
function sameProcess(daemon) {
  try {
    const cmdline = readFileSync(`/proc/${daemon.pid}/cmdline`, 'utf8');
    return cmdline.includes(daemon.program);
  } catch {
    return false;
  }
}
