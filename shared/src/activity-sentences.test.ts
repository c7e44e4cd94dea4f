import { describe, expect, it } from 'vitest';
import { describeActivity, parseStatusChange, statusChangeDescription } from './activity-sentences.ts';

const pcn = { id: 'p1', pcnNumber: '00000006' };
const sentence = (s: { before: string; pcn: { title: string } | null; after: string }) => `${s.before}${s.pcn?.title ?? ''}${s.after}`;

describe('describeActivity', () => {
  it('reads a status change the API wrote as a sentence with the app’s status names', () => {
    const description = statusChangeDescription('00000006', 'APPROVED', 'ISSUED');
    expect(parseStatusChange(description)).toEqual({ from: 'APPROVED', to: 'ISSUED' });
    const result = describeActivity({ activityType: 'PCN_STATUS_CHANGED', description, pcn }, 'Ada Admin');
    expect(sentence(result)).toBe('Ada Admin moved PCN-00000006 from Approved to Issued');
    expect(result.pcn).toEqual({ id: 'p1', title: 'PCN-00000006' });
  });

  it('names what was done to a PCN, and what a person did without one', () => {
    expect(sentence(describeActivity({ activityType: 'PCN_CREATED', description: 'Created PCN 00000006', pcn }, 'Olivia Officer'))).toBe(
      'Olivia Officer filed PCN-00000006',
    );
    expect(sentence(describeActivity({ activityType: 'LOGIN', description: null }, 'Olivia Officer'))).toBe('Olivia Officer signed in');
    expect(sentence(describeActivity({ activityType: 'LOGIN', description: 'Signed in with an access link' }, 'Nora New'))).toBe(
      'Nora New signed in with an access link',
    );
  });

  it('falls back to the recorded words when the PCN is gone or the type is unknown', () => {
    expect(
      sentence(describeActivity({ activityType: 'PCN_DELETED', description: 'Deleted PCN 00000007', pcn: null }, 'Olivia Officer')),
    ).toBe('Olivia Officer: Deleted PCN 00000007');
    expect(
      sentence(
        describeActivity(
          { activityType: 'ONBOARDING_SENT', description: 'Onboarding email sent to Nora New (nora@example.com)' },
          'Ada Admin',
        ),
      ),
    ).toBe('Ada Admin: Onboarding email sent to Nora New (nora@example.com)');
    expect(parseStatusChange('something else')).toBeNull();
  });
});
