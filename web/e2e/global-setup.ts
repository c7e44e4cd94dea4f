import { spawn, execSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../scripts/test-support.ts';
import { startFakeStripe } from '../../scripts/fake-stripe.ts';
import { writeEvidencePhotos } from './evidence-photos.ts';
import { startMailSink } from './mail-sink.ts';

const webDir = resolve(import.meta.dirname, '..');
const rootDir = resolve(webDir, '..');
const distDir = join(webDir, 'dist');

async function waitForHealth(baseUrl: string, timeoutMs: number, isAlive: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error('The API server exited during start-up; see its output above.');
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The API server did not answer ${baseUrl}/api/health within ${timeoutMs} ms`);
}

export default async function globalSetup() {
  if (!existsSync(join(distDir, 'index.html'))) {
    // The root test runner builds first; building here keeps `npx playwright test` self-sufficient.
    execSync('npm run build -w web', { cwd: rootDir, stdio: 'inherit' });
  }
  const tempDir = mkdtempSync(join(tmpdir(), 'parkpatrol-e2e-'));
  const dataDir = join(tempDir, 'data');
  const fixturesDir = join(tempDir, 'fixtures');
  // Serve a private copy: a rebuild of web/dist during the run (another engineer, npm run dev)
  // would otherwise swap hashed chunks under the browser.
  const servedDist = join(tempDir, 'dist');
  cpSync(distDir, servedDist, { recursive: true });
  writeEvidencePhotos(fixturesDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Emails go to a real SMTP server on loopback; tests read them from mailDir (mail-sink.ts).
  const mailDir = join(tempDir, 'received-mail');
  const mailSink = await startMailSink(mailDir);
  // Card payments go to a fake Stripe on loopback (scripts/fake-stripe.ts): the real library, signed webhooks to this server.
  const fakeStripe = await startFakeStripe({ webhook: `${baseUrl}/api/payments/stripe/webhook` });

  const server = spawn(process.execPath, ['api/src/server.ts'], {
    cwd: rootDir,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST_DIR: servedDist,
      APP_URL: baseUrl,
      SMTP_URL: mailSink.url,
      NODE_ENV: 'test',
      // argon2 at its least cost (api/src/auth/passwords.ts): the journeys sign in again and again.
      PASSWORD_HASH_COST: 'test',
      STRIPE_SECRET_KEY: fakeStripe.secretKey,
      STRIPE_WEBHOOK_SECRET: fakeStripe.webhookSecret,
      STRIPE_API_BASE: fakeStripe.url,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let isAlive = true;
  server.once('exit', () => {
    isAlive = false;
  });
  try {
    await waitForHealth(baseUrl, 60_000, () => isAlive);
  } catch (error) {
    server.kill('SIGTERM');
    await mailSink.close();
    await fakeStripe.close();
    rmSync(tempDir, { recursive: true, force: true });
    throw error;
  }

  // Workers are started after global setup and inherit these.
  process.env.PP_BASE_URL = baseUrl;
  process.env.PP_FIXTURES_DIR = fixturesDir;
  process.env.PP_MAIL_DIR = mailDir;
  // The server's DATA_DIR, for specs that run a command-line tool against it (npm run retention).
  process.env.PP_DATA_DIR = dataDir;
  // The fake Stripe's address, for specs that look at its hosted checkout page.
  process.env.PP_FAKE_STRIPE_URL = fakeStripe.url;

  return async () => {
    if (isAlive) {
      const exited = new Promise<void>((r) => server.once('exit', () => r()));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 6000))]);
      if (isAlive) server.kill('SIGKILL');
    }
    await mailSink.close();
    await fakeStripe.close();
    rmSync(tempDir, { recursive: true, force: true });
  };
}
