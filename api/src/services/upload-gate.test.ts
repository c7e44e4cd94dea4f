import { describe, expect, it } from 'vitest';
import { createUploadGate } from './upload-gate.ts';

describe('createUploadGate', () => {
  it('lets a few uploads per user in at once, then answers a wait', () => {
    const gate = createUploadGate({ perUser: 2, inAll: 10 });
    const first = gate.enter('a');
    const second = gate.enter('a');
    expect(first.ok && second.ok).toBe(true);
    expect(gate.enter('a')).toEqual({ ok: false, scope: 'user', retryAfterSeconds: 1 });
    expect(gate.enter('b').ok).toBe(true);
    if (first.ok) first.leave();
    expect(gate.enter('a').ok).toBe(true);
  });

  it('caps uploads in all, whoever sends them', () => {
    const gate = createUploadGate({ perUser: 5, inAll: 2 });
    expect(gate.enter('a').ok).toBe(true);
    expect(gate.enter('b').ok).toBe(true);
    expect(gate.enter('c')).toEqual({ ok: false, scope: 'server', retryAfterSeconds: 1 });
  });

  it('counts a request once however often it leaves', () => {
    const gate = createUploadGate({ perUser: 1, inAll: 1 });
    const entry = gate.enter('a');
    if (!entry.ok) throw new Error('expected to enter');
    entry.leave();
    entry.leave();
    expect(gate.enter('a').ok).toBe(true);
    expect(gate.enter('b').ok).toBe(false);
  });
});
