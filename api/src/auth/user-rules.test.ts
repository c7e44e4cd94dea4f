import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import { checkCreateUser, checkDeleteUser, checkUpdateUser } from './user-rules.ts';

const superAdmin = { id: 's', role: 'SUPER_ADMIN' as const };
const admin = { id: 'a', role: 'ADMIN' as const };
const officer = { id: 'u', role: 'USER' as const };
const otherAdmin = { id: 'a2', role: 'ADMIN' as const };

const manageRefusal = { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotManageRole };
const selfRefusal = { code: 'FORBIDDEN', message: SERVER_MESSAGES.cannotChangeSelf };

describe('checkCreateUser', () => {
  it('lets an admin create users but only a super admin create admins', () => {
    expect(checkCreateUser(admin, 'USER')).toBeNull();
    expect(checkCreateUser(admin, 'ADMIN')).toEqual(manageRefusal);
    expect(checkCreateUser(admin, 'SUPER_ADMIN')).toEqual(manageRefusal);
    expect(checkCreateUser(superAdmin, 'SUPER_ADMIN')).toBeNull();
  });
});

describe('checkUpdateUser', () => {
  it('lets an admin change a user but not promote them to admin', () => {
    expect(checkUpdateUser(admin, officer, { isActive: false })).toBeNull();
    expect(checkUpdateUser(admin, officer, { role: 'ADMIN' })).toEqual(manageRefusal);
  });

  it('keeps an admin away from other admin accounts, even to demote them', () => {
    expect(checkUpdateUser(admin, otherAdmin, {})).toEqual(manageRefusal);
    expect(checkUpdateUser(admin, otherAdmin, { role: 'USER' })).toEqual(manageRefusal);
    expect(checkUpdateUser(superAdmin, otherAdmin, { role: 'USER' })).toBeNull();
  });

  it('refuses deactivating or re-roling oneself but allows renaming oneself', () => {
    expect(checkUpdateUser(superAdmin, superAdmin, { isActive: false })).toEqual(selfRefusal);
    expect(checkUpdateUser(superAdmin, superAdmin, { role: 'ADMIN' })).toEqual(selfRefusal);
    expect(checkUpdateUser(superAdmin, superAdmin, { role: 'SUPER_ADMIN', isActive: true })).toBeNull();
    expect(checkUpdateUser(admin, admin, { role: 'USER' })).toEqual(selfRefusal);
  });
});

describe('checkDeleteUser', () => {
  it('refuses deleting oneself and lets only a super admin delete admins', () => {
    expect(checkDeleteUser(superAdmin, superAdmin)).toEqual(selfRefusal);
    expect(checkDeleteUser(admin, officer)).toBeNull();
    expect(checkDeleteUser(admin, otherAdmin)).toEqual(manageRefusal);
    expect(checkDeleteUser(superAdmin, otherAdmin)).toBeNull();
  });
});
