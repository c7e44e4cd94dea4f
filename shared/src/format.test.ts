import { describe, expect, it } from 'vitest';
import { appealExportFileName, formatListTotal, pcnExportFileName, registrationProblem, userExportFileName } from './format.ts';
import { registrationSchema } from './patrol-schemas.ts';

describe('export file names', () => {
  // 23:30 UTC on 31 July is 1 August in the UK: the name carries the operator's day.
  const now = new Date('2026-07-31T23:30:00Z');

  it('name the list, the filters that chose it and the UK day', () => {
    expect(pcnExportFileName(now)).toBe('pcns-2026-08-01.csv');
    expect(
      pcnExportFileName(now, {
        status: 'SUBMITTED',
        carParkName: 'North Lot (East)',
        search: 'AB12',
        from: '2026-07-01',
        to: '2026-07-31',
      }),
    ).toBe('pcns-submitted-north-lot-east-search-ab12-from-2026-07-01-to-2026-07-31-2026-08-01.csv');
    expect(pcnExportFileName(now, { flagged: 'duplicates', status: null, search: '' })).toBe('pcns-duplicates-2026-08-01.csv');
    expect(userExportFileName(now, { role: 'ADMIN', isActive: false, search: 'o’brien' })).toBe(
      'users-admin-inactive-search-o-brien-2026-08-01.csv',
    );
    expect(appealExportFileName(now, { status: 'OPEN' })).toBe('appeals-open-2026-08-01.csv');
  });
});

describe('formatListTotal', () => {
  it("groups thousands and marks a capped count with '+'", () => {
    expect(formatListTotal({ total: 7 })).toBe('7');
    expect(formatListTotal({ total: 1234, totalCapped: false })).toBe('1,234');
    expect(formatListTotal({ total: 1000, totalCapped: true })).toBe('1,000+');
  });
});

describe('registrationProblem', () => {
  it('says what the schemas say of a registration, as typed', () => {
    expect(registrationProblem(' ab12 cde ')).toBeNull();
    expect(registrationProblem('   ')).toBe('Vehicle registration is required');
    expect(registrationProblem('A')).toBe('Enter 2 to 10 letters and digits');
    expect(registrationProblem('AB-12')).toBe('Enter 2 to 10 letters and digits');
    expect(registrationProblem('ABCDEFGHIJK')).toBe('Enter 2 to 10 letters and digits');
    for (const typed of [' ab12 cde ', '   ', 'A', 'AB-12', 'ABCDEFGHIJK', 'XY99ZZZ']) {
      const parsed = registrationSchema.safeParse(typed);
      expect(parsed.success ? null : parsed.error.issues[0]!.message, typed).toBe(registrationProblem(typed));
    }
  });
});
