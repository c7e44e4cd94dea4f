import { describe, expect, it } from 'vitest';
import { ADMIN_NAV, ADMIN_NAV_GROUPS, findCurrentEntry } from './nav-entries.ts';

describe('current navigation entry', () => {
  it('is the entry whose path is the current path', () => {
    expect(findCurrentEntry('/pcn', false)?.label).toBe('My PCNs');
    expect(findCurrentEntry('/pcn/new', false)?.label).toBe('New PCN');
    expect(findCurrentEntry('/dashboard/', false)?.label).toBe('Dashboard');
  });

  it('is none on screens without an entry, so the top bar falls back to the product title', () => {
    expect(findCurrentEntry('/pcn/123', false)).toBeUndefined();
  });

  it('includes the Administration entries only for admins', () => {
    expect(findCurrentEntry('/admin/users', false)).toBeUndefined();
    expect(findCurrentEntry('/admin/users', true)?.label).toBe('Manage Users');
  });
});

describe("the admin's navigation groups", () => {
  it('hold every admin entry once, the desk first and the chase after the notice second', () => {
    expect(ADMIN_NAV_GROUPS.map((group) => group.label)).toEqual(['Administration', 'After the notice']);
    const hrefs = ADMIN_NAV_GROUPS.flatMap((group) => group.entries.map((entry) => entry.href));
    expect(new Set(hrefs).size).toBe(hrefs.length);
    expect(ADMIN_NAV).toHaveLength(11);
    expect(findCurrentEntry('/admin/appeals', true)?.label).toBe('Appeals');
  });
});
