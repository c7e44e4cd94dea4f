import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PcnDuplicateMatch, PcnDuplicatesQuery } from '@parkpatrol/shared';
import { createDuplicateChecker, type DuplicateCheckResult } from './duplicate-checker.ts';

const query = (vehicleRegistration: string): PcnDuplicatesQuery => ({ vehicleRegistration, carParkId: 'cp-1', date: '2025-06-02' });
const match = (id: string, pcnNumber = '00000042'): PcnDuplicateMatch => ({
  id,
  pcnNumber,
  status: 'SUBMITTED',
  createdAt: '2025-06-02T09:00:00Z',
});

function setup(fetchDuplicates: (q: PcnDuplicatesQuery) => Promise<PcnDuplicateMatch[]>) {
  const results: DuplicateCheckResult[] = [];
  const fetch = vi.fn(fetchDuplicates);
  const checker = createDuplicateChecker({ fetchDuplicates: fetch, onResult: (r) => results.push(r), debounceMs: 500 });
  return { checker, fetch, results, last: () => results[results.length - 1] };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createDuplicateChecker', () => {
  it('asks once typing has paused for 500 ms, with the last query only', async () => {
    const { checker, fetch, last } = setup(async () => [match('p1')]);
    checker.update(query('AB12'));
    await vi.advanceTimersByTimeAsync(300);
    checker.update(query('AB12CDE'));
    await vi.advanceTimersByTimeAsync(499);
    expect(fetch).not.toHaveBeenCalled();
    expect(last()).toEqual({ key: 'AB12CDE|cp-1|2025-06-02', duplicates: [], isChecking: true });
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith(query('AB12CDE'));
    expect(last()).toEqual({ key: 'AB12CDE|cp-1|2025-06-02', duplicates: [match('p1')], isChecking: false });
  });

  it('never shows a slow answer to an older question', async () => {
    let resolveOld: (m: PcnDuplicateMatch[]) => void = () => undefined;
    const { checker, last } = setup((q) =>
      q.vehicleRegistration === 'AB12' ? new Promise((resolve) => (resolveOld = resolve)) : Promise.resolve([]),
    );
    checker.update(query('AB12'));
    await vi.advanceTimersByTimeAsync(500);
    checker.update(query('AB12CDE'));
    await vi.advanceTimersByTimeAsync(500);
    resolveOld([match('old')]);
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toEqual({ key: 'AB12CDE|cp-1|2025-06-02', duplicates: [], isChecking: false });
  });

  it('shows no warning when the check fails (offline, 403, timeout): it never blocks', async () => {
    const { checker, last } = setup(async () => {
      throw new Error('offline');
    });
    checker.update(query('AB12CDE'));
    await vi.advanceTimersByTimeAsync(500);
    expect(last()).toEqual({ key: 'AB12CDE|cp-1|2025-06-02', duplicates: [], isChecking: false });
  });

  it('asks nothing while there is no valid question (invalid fields or offline), and drops a shown warning', async () => {
    const { checker, fetch, last } = setup(async () => [match('p1')]);
    checker.update(null);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).not.toHaveBeenCalled();
    checker.update(query('AB12CDE'));
    await vi.advanceTimersByTimeAsync(500);
    expect(last()!.duplicates).toHaveLength(1);
    checker.update(null);
    expect(last()).toEqual({ key: null, duplicates: [], isChecking: false });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('leaves the notice being edited out of its own matches, and stops reporting once disposed', async () => {
    const { checker, results } = setup(async () => [match('self', '00000007'), match('other', '00000008')]);
    checker.update(query('AB12CDE'), { excludePcnId: 'self' });
    await vi.advanceTimersByTimeAsync(500);
    expect(results[results.length - 1]!.duplicates.map((m) => m.id)).toEqual(['other']);
    const count = results.length;
    checker.dispose();
    checker.update(query('ZZ99ZZZ'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(results).toHaveLength(count);
  });
});
