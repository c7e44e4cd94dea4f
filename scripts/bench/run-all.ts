// `npm run bench`: every benchmark in turn, each printing its table, then docs/benchmarks.md with
// the latest results and the machine they came from. Exits non-zero when a budget is broken.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describeMachine, root } from './bench-utils.ts';
import { API_TARGETS_NOTE, formatApiRows, missedTargets, runApiBench } from './api.ts';
import { formatFrames, profileApi } from './profile-api.ts';
import { formatWebDelivery, judgeWebDelivery, runWebDeliveryBench } from './web-delivery.ts';
import { formatVitalsRows, runVitalsBench } from './web-vitals.ts';
import { formatOfflineRows, runOfflineBench } from './offline.ts';

const sections: string[] = [];
let failed = false;
const section = (title: string, body: string) => {
  console.log(`\n## ${title}\n\n${body}`);
  sections.push(`## ${title}\n\n${body}`);
};

execSync('npm run build -w web', { cwd: root, stdio: 'inherit' });

const delivery = await runWebDeliveryBench();
failed ||= judgeWebDelivery(delivery).broken.length > 0;
section('Web on one bar of signal: bytes on the wire and time, against the budgets of decision 0011', formatWebDelivery(delivery));

const api = await runApiBench();
failed ||= api.rows.some((r) => r.errors > 0 || r.non2xx > 0) || missedTargets(api.rows).length > 0;
section(
  'API on loopback (autocannon, beside a bare Hono route in the same run)',
  `${API_TARGETS_NOTE}\n\n${formatApiRows(api.rows)}${missedTargets(api.rows)
    .map((line) => `\n\nTarget missed: ${line}`)
    .join('')}`,
);

const profiled = await profileApi();
section(
  'Where a signed-in request spends its CPU (node --cpu-prof, SQLite, both hot routes under load)',
  `Throughput while profiled: ${Object.entries(profiled.rps)
    .map(([name, value]) => `${name} ${value} req/s`)
    .join('; ')}. Self time from ${profiled.loadFromMs} ms on (the server up and the notices filed).\n\n${formatFrames(profiled.frames)}`,
);

section('Core Web Vitals (Chromium, first visit, 4x CPU throttling, slow 4G)', formatVitalsRows(await runVitalsBench()));

section('Offline (Chromium, real app and API)', formatOfflineRows(await runOfflineBench()));

const soakOfficers = process.env.SOAK_OFFICERS ?? '100';
const soakSeconds = process.env.SOAK_SECONDS ?? '60';
const soak = execSync(`npx vitest run --project api test/crash-recovery.test.ts -t soak`, {
  cwd: root,
  env: { ...process.env, SOAK_OFFICERS: soakOfficers, SOAK_SECONDS: soakSeconds },
  encoding: 'utf8',
});
// vitest colours its output; the summary line goes into markdown, so the escapes go.
const soakLine =
  stripVTControlCharacters(soak)
    .split('\n')
    .find((l) => l.includes('soak:')) ?? 'soak: no summary line';
section(`Soak (${soakOfficers} simulated officers for ${soakSeconds} s)`, soakLine.trim());

const report = `# Benchmarks\n\nLatest \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}: ${describeMachine()}.\nNumbers from a shared 2-core machine move between runs; the ceiling row shows how busy it was.\n\n${sections.join('\n\n')}\n`;
writeFileSync(join(root, 'docs', 'benchmarks.md'), report);
console.log('\nWrote docs/benchmarks.md');
if (failed) process.exitCode = 1;
