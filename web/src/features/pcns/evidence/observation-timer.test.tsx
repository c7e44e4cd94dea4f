import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ObservationTimer } from './observation-timer.tsx';

const LONDON = { locale: 'en-GB', timeZone: 'Europe/London' };
const carPark = { considerationMinutes: 5, graceMinutes: 10, stayAppliesByDefault: true };
const now = () => Date.parse('2025-06-02T13:24:05Z');

function render(props: Partial<Parameters<typeof ObservationTimer>[0]> = {}) {
  return renderToStaticMarkup(
    <ObservationTimer
      observedAt="2025-06-02T13:17:00Z"
      stayApplies={null}
      carPark={carPark}
      onChange={() => undefined}
      now={now}
      format={LONDON}
      {...props}
    />,
  );
}

describe('ObservationTimer', () => {
  it('shows the running time, the first sighting and when the notice may be issued', () => {
    const html = render();
    expect(html).toContain('Observed for 7 min 05 s');
    expect(html).toContain('First seen at 14:17');
    expect(html).toContain('7 min 55 s to go');
    expect(html).toContain(
      'A stay applies at this car park: 5 minutes&#x27; consideration and 10 minutes&#x27; grace must pass after first sighting. You can issue this notice at 14:32.',
    );
  });

  it('keeps the running seconds out of live regions: one polite status with the phase only', () => {
    const html = render();
    expect(html.match(/role="status"/g)).toHaveLength(1);
    expect(html).not.toContain('aria-live="assertive"');
    const timers = [...html.matchAll(/<p role="timer"[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(timers).toEqual(['Observed for 7 min 05 s', '7 min 55 s to go']);
    const status = /<p role="status"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
    expect(status).not.toMatch(/\d+ s\b/);
  });

  it('offers the first-sighting button, a time field and the stay switch, on by the car park’s default', () => {
    const html = render({ observedAt: null });
    expect(html).toContain('Vehicle first seen');
    expect(html).toContain('type="time"');
    expect(html).toContain('A stay applies');
    expect(html).toMatch(/<input[^>]*role="switch"[^>]*checked=""/);
    expect(html).toContain('record when the vehicle was first seen');
    expect(html).not.toContain('role="timer"');
  });

  it('asks for the first sighting before explaining the wait, and keeps the restart below the running clock', () => {
    const asked = render({ observedAt: null });
    expect(asked.indexOf('Vehicle first seen</button>')).toBeGreaterThan(asked.indexOf('role="switch"'));
    expect(asked.indexOf('Vehicle first seen</button>')).toBeLessThan(asked.indexOf('not recorded yet'));
    const running = render();
    expect(running.indexOf('Vehicle first seen now (restart)')).toBeGreaterThan(running.indexOf('role="timer"'));
  });

  it('shows the switch off when the officer turned the stay off, and says so', () => {
    const html = render({ stayApplies: false });
    expect(html).not.toMatch(/<input[^>]*role="switch"[^>]*checked=""/);
    expect(html).toContain('you changed it for this notice');
    expect(html).toContain('No stay applies');
  });

  it('shows only the timer on the review step', () => {
    const html = render({ showControls: false });
    expect(html).not.toContain('role="switch"');
    expect(html).not.toContain('Vehicle first seen');
  });
});
