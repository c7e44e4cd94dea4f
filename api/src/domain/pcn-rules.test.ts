import { describe, expect, it } from 'vitest';
import { PCN_STATUSES, PCN_STATUS_TRANSITIONS, type PcnStatus, type Role } from '@parkpatrol/shared';
import {
  canViewPcn,
  decidePcnChange,
  decidePcnSubmit,
  decideStatusChange,
  fitsImageLimit,
  hashPcnRequest,
  normalisePcnSearch,
} from './pcn-rules.ts';

const owner = { id: 'owner', role: 'USER' as Role };
const stranger = { id: 'stranger', role: 'USER' as Role };
const admin = { id: 'admin', role: 'ADMIN' as Role };
const superAdmin = { id: 'super', role: 'SUPER_ADMIN' as Role };
const pcn = (status: PcnStatus) => ({ createdBy: 'owner', status });

describe('PCN visibility', () => {
  it('lets the owner and admins see a PCN, and hides it from other users', () => {
    expect(canViewPcn(owner, pcn('PAID'))).toBe(true);
    expect(canViewPcn(admin, pcn('PAID'))).toBe(true);
    expect(canViewPcn(superAdmin, pcn('PAID'))).toBe(true);
    expect(canViewPcn(stranger, pcn('SUBMITTED'))).toBe(false);
  });

  it('does not treat an orphaned PCN (creator deleted) as owned by anyone', () => {
    expect(canViewPcn(owner, { createdBy: null, status: 'SUBMITTED' })).toBe(false);
  });
});

describe('editing and deleting', () => {
  it('lets the owner change a SUBMITTED PCN only', () => {
    for (const status of PCN_STATUSES) {
      expect(decidePcnChange(owner, pcn(status))).toBe(status === 'SUBMITTED' ? 'allowed' : 'locked');
    }
  });

  it('lets admins change a PCN at any status', () => {
    for (const status of PCN_STATUSES) expect(decidePcnChange(admin, pcn(status))).toBe('allowed');
  });

  it('hides the PCN from another user whatever its status', () => {
    for (const status of PCN_STATUSES) expect(decidePcnChange(stranger, pcn(status))).toBe('hidden');
  });
});

describe('submit confirmation', () => {
  it('confirms while SUBMITTED and conflicts afterwards', () => {
    expect(decidePcnSubmit(owner, pcn('SUBMITTED'))).toBe('allowed');
    expect(decidePcnSubmit(admin, pcn('SUBMITTED'))).toBe('allowed');
    expect(decidePcnSubmit(owner, pcn('UNDER_REVIEW'))).toBe('locked');
    expect(decidePcnSubmit(stranger, pcn('SUBMITTED'))).toBe('hidden');
  });
});

describe('status changes', () => {
  it('allows admins exactly the transitions of the table', () => {
    for (const from of PCN_STATUSES) {
      for (const to of PCN_STATUSES) {
        const expected = PCN_STATUS_TRANSITIONS[from].includes(to) ? 'allowed' : 'locked';
        expect(decideStatusChange(admin, pcn(from), to), `${from} -> ${to}`).toBe(expected);
        expect(decideStatusChange(superAdmin, pcn(from), to), `${from} -> ${to}`).toBe(expected);
      }
    }
  });

  it('lets the owner cancel their own SUBMITTED PCN and nothing else', () => {
    expect(decideStatusChange(owner, pcn('SUBMITTED'), 'CANCELLED')).toBe('allowed');
    expect(decideStatusChange(owner, pcn('UNDER_REVIEW'), 'CANCELLED')).toBe('locked');
    expect(decideStatusChange(owner, pcn('SUBMITTED'), 'UNDER_REVIEW')).toBe('forbidden');
    expect(decideStatusChange(owner, pcn('SUBMITTED'), 'APPROVED')).toBe('forbidden');
  });

  it('hides the PCN from another user trying to change its status', () => {
    expect(decideStatusChange(stranger, pcn('SUBMITTED'), 'CANCELLED')).toBe('hidden');
  });
});

describe('image limit', () => {
  it('counts what the PCN holds after the edit', () => {
    expect(fitsImageLimit(8, 0, 2)).toBe(true);
    expect(fitsImageLimit(8, 0, 3)).toBe(false);
    expect(fitsImageLimit(10, 2, 2)).toBe(true);
  });
});

describe('request fingerprint', () => {
  const fields = {
    vehicleRegistration: 'AB12CDE',
    carParkId: 'cp',
    offenceType: 'OTHER' as const,
    description: 'x',
    location: 'Bay 4',
    noticeServedBy: 'AFFIXED' as const,
  };
  const images = [{ sha256: 'a'.repeat(64), takenAt: null }];

  it('is stable for the same fields and photos', () => {
    expect(hashPcnRequest(fields, images)).toBe(hashPcnRequest({ ...fields }, [...images]));
  });

  it('changes with any field, photo or photo order', () => {
    const base = hashPcnRequest(fields, images);
    expect(hashPcnRequest({ ...fields, location: 'Bay 5' }, images)).not.toBe(base);
    expect(hashPcnRequest(fields, [{ sha256: 'b'.repeat(64), takenAt: null }])).not.toBe(base);
    expect(hashPcnRequest(fields, [...images, { sha256: 'b'.repeat(64), takenAt: null }])).not.toBe(
      hashPcnRequest(fields, [{ sha256: 'b'.repeat(64), takenAt: null }, ...images]),
    );
  });
});

describe('search normalisation', () => {
  it('ignores case, spaces and the PCN- prefix', () => {
    expect(normalisePcnSearch(' ab12 cde ')).toEqual({ registration: 'AB12CDE', number: 'AB12CDE' });
    expect(normalisePcnSearch('PCN-00000042')).toEqual({ registration: 'PCN00000042', number: '00000042' });
    expect(normalisePcnSearch('  ')).toBeNull();
  });
});

describe('hashPcnRequest with the evidence fields', () => {
  const fields = {
    vehicleRegistration: 'AB12CDE',
    carParkId: 'cp-1',
    offenceType: 'OTHER' as const,
    description: '',
    location: 'Bay 1',
  };
  const image = { sha256: 'a'.repeat(64), takenAt: null };

  it('keeps the fingerprint of a request that sends none of them (a notice queued before the upgrade)', async () => {
    const { createHash } = await import('node:crypto');
    const before = createHash('sha256')
      .update(JSON.stringify(['AB12CDE', 'cp-1', 'OTHER', '', 'Bay 1', null, [['a'.repeat(64), null]]]))
      .digest('hex');
    expect(hashPcnRequest(fields, [{ ...image, takenAtSource: null, latitude: null, longitude: null, accuracyM: null, shots: [] }])).toBe(
      before,
    );
  });

  it('changes when any of them changes', () => {
    const base = hashPcnRequest(fields, [image]);
    const variants = [
      hashPcnRequest({ ...fields, issuedAt: '2026-06-01T10:00:00Z' }, [image]),
      hashPcnRequest({ ...fields, stayApplies: true }, [image]),
      hashPcnRequest({ ...fields, stayApplies: false }, [image]),
      hashPcnRequest({ ...fields, duplicateReason: 'Second visit' }, [image]),
      hashPcnRequest({ ...fields, noticeServedBy: 'AFFIXED' }, [image]),
      hashPcnRequest({ ...fields, noticeServedBy: 'DRIVE_OFF' }, [image]),
      hashPcnRequest({ ...fields, noticeServedBy: 'DRIVE_OFF', noticeServedAt: '2026-06-01T10:05:00Z' }, [image]),
      hashPcnRequest(fields, [{ ...image, shots: ['signage'] }]),
      hashPcnRequest(fields, [{ ...image, latitude: 51.5, longitude: -0.1 }]),
      hashPcnRequest(fields, [{ ...image, takenAtSource: 'added' }]),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });
});
