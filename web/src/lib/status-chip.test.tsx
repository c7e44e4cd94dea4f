import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { PCN_STATUSES, PCN_STATUS_LABELS } from '@parkpatrol/shared';
import { StatusChip } from './status-chip.tsx';

describe('status chip', () => {
  it.each([
    ['SUBMITTED', 'warning'],
    ['UNDER_REVIEW', 'warning'],
    ['APPROVED', 'success'],
    ['ISSUED', 'success'],
    ['PAID', 'success'],
    ['REJECTED', 'error'],
    ['CANCELLED', 'error'],
  ] as const)('shows %s in the %s colour group', (status, group) => {
    expect(renderToStaticMarkup(<StatusChip status={status} />)).toContain(`chip--${group}`);
  });

  it('always says the status in words, not only by colour', () => {
    for (const status of PCN_STATUSES) {
      const html = renderToStaticMarkup(<StatusChip status={status} />);
      expect(html).toContain(`>${PCN_STATUS_LABELS[status]}</span>`);
      expect(html).toContain('aria-hidden="true"');
    }
  });
});
