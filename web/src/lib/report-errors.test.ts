import { describe, expect, it } from 'vitest';
import type { ClientErrorReport } from '@parkpatrol/shared';
import { clientErrorReport, reportUncaughtErrors } from './report-errors.ts';

describe('clientErrorReport', () => {
  it('names the error, keeps its stack, and sends the page without its query or fragment', () => {
    const error = new TypeError('x is undefined');
    const report = clientErrorReport(error, '/reset-password?token=secret#top', 'b1');
    expect(report).toMatchObject({ message: 'TypeError: x is undefined', page: '/reset-password', buildId: 'b1' });
    expect(report.stack).toContain('x is undefined');
  });

  it('bounds what it sends, and reports a thrown non-error as text', () => {
    expect(clientErrorReport('x'.repeat(5000), '/', 'b1').message).toHaveLength(1000);
    expect(clientErrorReport({ toString: () => 'odd' }, '/', 'b1')).toEqual({ message: 'odd', page: '/', buildId: 'b1' });
  });
});

describe('reportUncaughtErrors', () => {
  it('reports each distinct error once, and at most five per page load', () => {
    const listeners = new Map<string, (event: unknown) => void>();
    const sent: ClientErrorReport[] = [];
    globalThis.location ??= { pathname: '/dashboard' } as Location;
    reportUncaughtErrors(
      { addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener) } as never,
      (r) => sent.push(r),
    );
    const same = new Error('same');
    listeners.get('error')!({ error: same });
    listeners.get('error')!({ error: same });
    listeners.get('unhandledrejection')!({ reason: new Error('rejected') });
    for (let n = 0; n < 10; n++) listeners.get('error')!({ error: new Error(`loop ${n}`) });
    expect(sent.map((r) => r.message)).toEqual(['Error: same', 'Error: rejected', 'Error: loop 0', 'Error: loop 1', 'Error: loop 2']);
  });
});
