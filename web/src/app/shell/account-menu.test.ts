import { describe, expect, it } from 'vitest';
import { nextMenuIndex } from './account-menu.tsx';

describe('nextMenuIndex', () => {
  it('moves down and up, wrapping at either end', () => {
    expect(nextMenuIndex('ArrowDown', 0, 2)).toBe(1);
    expect(nextMenuIndex('ArrowDown', 1, 2)).toBe(0);
    expect(nextMenuIndex('ArrowUp', 0, 2)).toBe(1);
    expect(nextMenuIndex('ArrowUp', 1, 2)).toBe(0);
  });

  it('jumps to the first and last item, and ignores other keys', () => {
    expect(nextMenuIndex('Home', 1, 3)).toBe(0);
    expect(nextMenuIndex('End', 0, 3)).toBe(2);
    expect(nextMenuIndex('a', 0, 3)).toBeNull();
  });

  it('starts from the first item when focus is not on one yet', () => {
    expect(nextMenuIndex('ArrowDown', -1, 2)).toBe(0);
  });
});
