import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { DuplicateWarning } from './duplicate-warning.tsx';

describe('DuplicateWarning', () => {
  it('names each earlier notice with its status and asks for a required reason', () => {
    const html = renderToStaticMarkup(
      <DuplicateWarning duplicates={[{ id: 'p1', pcnNumber: '00000042', status: 'SUBMITTED' }]} value="" onChange={() => undefined} />,
    );
    expect(html).toContain('PCN-00000042 (Submitted) was already issued for this vehicle at this car park today.');
    expect(html).toContain('One charge per parking event.');
    expect(html).toContain('Reason for a second notice');
    expect(html).toMatch(/<textarea[^>]*aria-required="true"/);
    expect(html).toContain('role="status"');
    expect(html).not.toContain('role="alert"');
  });

  it('shows the step’s message on the reason field', () => {
    const html = renderToStaticMarkup(
      <DuplicateWarning
        duplicates={[{ id: 'p1', pcnNumber: '00000042', status: 'ISSUED' }]}
        value=""
        onChange={() => undefined}
        errorMessage="Give a reason"
      />,
    );
    expect(html).toContain('(Issued)');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('Give a reason');
  });

  it('shows nothing when there is no duplicate (or the check failed or ran offline)', () => {
    expect(renderToStaticMarkup(<DuplicateWarning duplicates={[]} value="" onChange={() => undefined} />)).toBe('');
  });
});
