import { describe, expect, it } from 'vitest';
import { createAttemptKey } from './attempt-key.ts';

describe('an attempt key', () => {
  it('stays the same across retries of one attempt, and is new once it was recorded', () => {
    let made = 0;
    const attempt = createAttemptKey(() => `key-${++made}`);
    expect(attempt.current).toBe('key-1');
    // A failed or lost send is retried with the same key: the server records it once.
    expect(attempt.current).toBe('key-1');
    attempt.recorded();
    expect(attempt.current).toBe('key-2');
  });

  it('makes UUIDs by default, one per attempt', () => {
    const first = createAttemptKey();
    const second = createAttemptKey();
    expect(first.current).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.current).not.toBe(second.current);
  });
});
