import { describe, expect, it } from 'vitest';
import { SCREEN_TEXTS } from '@parkpatrol/shared';
import { withBootScreen } from './boot-screen.ts';

const TEMPLATE = '<head><title>T</title>\n<!--boot-head--></head><body><div id="root"></div>\n<!--boot-body--></body>';

describe('the boot screen in index.html', () => {
  it('puts the sign-in form with the spec\'s texts and the loading shell in place of the markers', () => {
    const html = withBootScreen(TEMPLATE, 'ParkPatrol Self Ticketing');
    expect(html).not.toContain('<!--boot');
    for (const text of ['ParkPatrol Self Ticketing', SCREEN_TEXTS.signInSubtitle, SCREEN_TEXTS.signIn, SCREEN_TEXTS.forgotPasswordLink, SCREEN_TEXTS.loading]) {
      expect(html).toContain(`>${text}<`);
    }
    expect(html).toMatch(/<script>\(function\(\)\{.*\}\)\(\);<\/script>/);
  });

  it('escapes the product name', () => {
    expect(withBootScreen(TEMPLATE, 'A&B <Parking> Self Ticketing')).toContain('>A&amp;B &lt;Parking&gt; Self Ticketing<');
  });
});
