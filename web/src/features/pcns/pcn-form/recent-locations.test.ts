import { describe, expect, it } from 'vitest';
import { addRecentLocation, readRecentLocations, rememberLocation } from './recent-locations.ts';

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> {
  const values = new Map<string, string>();
  return { getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

describe('recent locations', () => {
  it('keeps the last four, newest first, without repeats', () => {
    let recent: string[] = [];
    for (const location of ['Level 1', 'Level 2', 'level 1 ', 'Row C', 'Row D', 'Bay 9']) recent = addRecentLocation(recent, location);
    expect(recent).toEqual(['Bay 9', 'Row D', 'Row C', 'level 1']);
    expect(addRecentLocation(recent, '   ')).toEqual(recent);
  });

  it('keeps them per officer and car park', () => {
    const storage = memoryStorage();
    rememberLocation('officer-1', 'park-a', 'Level 2', storage);
    rememberLocation('officer-1', 'park-b', 'Gate', storage);
    rememberLocation('officer-2', 'park-a', 'Roof', storage);
    expect(readRecentLocations('officer-1', 'park-a', storage)).toEqual(['Level 2']);
    expect(readRecentLocations('officer-1', 'park-b', storage)).toEqual(['Gate']);
    expect(readRecentLocations('officer-1', '', storage)).toEqual([]);
  });
});
