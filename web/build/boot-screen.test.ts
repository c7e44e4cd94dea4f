import { describe, expect, it } from 'vitest';
import { SCREEN_TEXTS } from '@parkpatrol/shared';
import { CHARGE_LOOKUP_INTRO } from '../src/features/charge/charge-texts.ts';
import { withBootScreen } from './boot-screen.ts';

const TEMPLATE = '<head><title>T</title>\n<!--boot-head--></head><body><div id="root"></div>\n<!--boot-body--></body>';

describe('the boot screen in index.html', () => {
  it("puts the sign-in form with the spec's texts and the loading shell in place of the markers", () => {
    const html = withBootScreen(TEMPLATE, 'ParkPatrol Self Ticketing');
    expect(html).not.toContain('<!--boot');
    for (const text of [
      'ParkPatrol Self Ticketing',
      SCREEN_TEXTS.signInSubtitle,
      SCREEN_TEXTS.signIn,
      SCREEN_TEXTS.forgotPasswordLink,
      SCREEN_TEXTS.loading,
    ]) {
      expect(html).toContain(`>${text}<`);
    }
    expect(html).toMatch(/<script>\(function\(\)\{.*\}\)\(\);<\/script>/);
  });

  it("paints the motorist's lookup at /charge, with the words ChargeScreen shows", () => {
    const html = withBootScreen(TEMPLATE, 'ParkPatrol Self Ticketing');
    for (const text of ['Your parking charge', CHARGE_LOOKUP_INTRO, 'Charge reference', 'Vehicle registration', 'Find my charge']) {
      expect(html).toContain(`>${text}<`);
    }
    expect(html).toContain('id="boot-charge-lookup"');
    expect(html).toMatch(/html:not\(\[data-boot="charge"\]\) \.boot-charge[,{][^}]*\{display:none\}/);
  });

  it('escapes the product name', () => {
    expect(withBootScreen(TEMPLATE, 'A&B <Parking> Self Ticketing')).toContain('>A&amp;B &lt;Parking&gt; Self Ticketing<');
  });
});

describe('PRODUCT_NAME at build', () => {
  it('is refused when it holds markup, and the build fails naming it', async () => {
    const { execFileSync } = await import('node:child_process');
    const { resolve } = await import('node:path');
    let output = '';
    try {
      execFileSync('npx', ['vite', 'build', '--outDir', resolve(import.meta.dirname, '../node_modules/.cache/refused-build')], {
        cwd: resolve(import.meta.dirname, '..'),
        env: { ...process.env, PRODUCT_NAME: '</title><script>alert(1)</script>' },
        stdio: 'pipe',
        timeout: 60_000,
      });
    } catch (error) {
      output = String((error as { stderr?: Buffer }).stderr ?? error);
    }
    expect(output).toContain('PRODUCT_NAME must be plain text');
  }, 90_000);
});
