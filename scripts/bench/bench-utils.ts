// Shared pieces of the benchmarks: child servers, waiting for readiness, tables, the machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export const root = join(import.meta.dirname, '..', '..');

/**
 * Runs a file of a checkout (this one unless `cwd` names another) with the given environment:
 * TypeScript and JavaScript alike on this Node, which strips the types itself.
 */
export function startProcess(
  script: string,
  env: Record<string, string>,
  cwd = root,
  options: { cpu?: number; env?: NodeJS.ProcessEnv } = {},
): ChildProcess {
  const command = process.execPath;
  const pinned = options.cpu !== undefined && canPin();
  const child = spawn(pinned ? 'taskset' : command, pinned ? ['-c', String(options.cpu), command, script] : [script], {
    cwd,
    env: { ...(options.env ?? process.env), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Read and dropped, as a log collector reads a server's output: a pipe nobody reads fills, and
  // then the server's log writes wait (or, buffered, grow) and the numbers measure that instead.
  child.stdout?.resume();
  return child;
}

/** util-linux's taskset and more than one CPU: a server and its load generator can each have a core of their own. */
export function canPin(): boolean {
  return cpus().length > 1 && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Keeps every thread of this process (the load generator) on one CPU. */
export function pinThisProcess(cpu: number): boolean {
  return canPin() && spawnSync('taskset', ['-a', '-cp', String(cpu), String(process.pid)], { stdio: 'ignore' }).status === 0;
}

export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function describeMachine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} cores (${cpu.trim()}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`;
}

export function formatTable(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.slice(1).map(line)].join('\n');
}
