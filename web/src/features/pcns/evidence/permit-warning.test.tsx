import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { PermitWarning } from './permit-warning.tsx';

describe('PermitWarning', () => {
  it('says the car holds a permit, in the words the server would refuse with, and asks for a required reason', () => {
    const html = renderToStaticMarkup(
      <PermitWarning permit={{ kind: 'STAFF', validUntil: '2026-12-31T23:59:59.999Z' }} value="" onChange={() => undefined} />,
    );
    expect(html).toContain('Staff permit, valid until 31 Dec 2026: do not issue');
    expect(html).toContain('role="alert"');
    expect(html).toContain('Reason to issue despite the permit');
    expect(html).toContain('parked outside the permitted bays');
    expect(html).toMatch(/<textarea[^>]*aria-required="true"/);
  });

  it('shows the server’s refusal when the phone did not know the permit', () => {
    const html = renderToStaticMarkup(
      <PermitWarning
        permit={null}
        serverMessage="Resident permit, with no end date: do not issue"
        value=""
        onChange={() => undefined}
        errorMessage="Give a reason to issue despite the permit, or do not issue"
      />,
    );
    expect(html).toContain('Resident permit, with no end date: do not issue');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('Give a reason to issue despite the permit, or do not issue');
  });

  it('shows nothing for a registration without a permit', () => {
    expect(renderToStaticMarkup(<PermitWarning permit={null} value="" onChange={() => undefined} />)).toBe('');
  });
});
