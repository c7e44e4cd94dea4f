import { describe, expect, it } from 'vitest';
import { findCurrentEntry } from './nav-entries.ts';

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
