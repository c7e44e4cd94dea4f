import { describe, expect, it } from 'vitest';
import { defaultCarParkId, readLastCarPark, rememberLastCarPark } from './default-car-park.ts';

describe('defaultCarParkId', () => {
  it('starts at the last car park used while it is still assigned', () => {
    expect(defaultCarParkId(['a', 'b'], 'b')).toBe('b');
  });

  it('else at the only car park assigned, else at none', () => {
    expect(defaultCarParkId(['a'], 'gone')).toBe('a');
    expect(defaultCarParkId(['a', 'b'], 'gone')).toBe('');
    expect(defaultCarParkId(['a', 'b'], null)).toBe('');
    expect(defaultCarParkId([], null)).toBe('');
  });

  it('remembers the last car park per officer', () => {
    const map = new Map<string, string>();
    const storage = { getItem: (key: string) => map.get(key) ?? null, setItem: (key: string, value: string) => void map.set(key, value) };
    rememberLastCarPark('u1', 'b', storage);
    expect(readLastCarPark('u1', storage)).toBe('b');
    expect(readLastCarPark('u2', storage)).toBeNull();
  });
});
