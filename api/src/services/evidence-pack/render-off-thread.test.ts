import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, type PcnAuditEntry } from '@parkpatrol/shared';
import { AppError } from '../../http/app-error.ts';
import { createPackRenderer, PACK_RENDERER_LIMITS } from './render-off-thread.ts';
import type { RenderRequest } from './render-worker.ts';

/**
 * The pack renderer's worker is stopped when a pack goes past its limits, and only that pack
 * fails: the pack queued behind it is made by a fresh worker. A small heap limit stands in for the
 * real one, and a pack with an audit trail far beyond anything recorded stands in for a runaway.
 */
function packContent(auditEntries: number): RenderRequest['content'] {
  const entry = (index: number): PcnAuditEntry => ({
    id: `a${index}`,
    pcnId: 'p1',
    action: 'updated',
    actor: null,
    actorName: 'Ade Admin',
    changes: { adminNotes: { from: `note ${index} `.repeat(40), to: `note ${index + 1} `.repeat(40) } },
    clockOffsetMs: null,
    createdAt: '2026-07-01T09:30:00.000Z',
  });
  return {
    productName: 'ParkPatrol',
    generatedAt: new Date('2026-07-02T10:00:00.000Z'),
    pcn: {
      pcnNumber: '00000042',
      vehicleRegistration: 'AB12CDE',
      offenceType: 'PARKING_WITHOUT_PERMIT',
      description: '',
      location: 'Bay 4',
      status: 'ISSUED',
      adminNotes: null,
      observedAt: '2026-07-01T09:00:00.000Z',
      issuedAt: '2026-07-01T09:20:00.000Z',
      parkedFrom: '2026-07-01T09:00:00.000Z',
      parkedUntil: '2026-07-01T09:20:00.000Z',
      amount: null,
      stayApplies: true,
      clockOffsetMs: null,
      noticeToDriver: { servedBy: 'AFFIXED', servedAt: '2026-07-01T09:20:00.000Z' },
      keeperNotice: {
        route: 'PARAGRAPH_8',
        gap: null,
        firstPostingDate: '2026-07-30',
        lastPostingDate: '2026-08-25',
        postedOn: null,
        deemedGivenOn: null,
      },
      duplicateReason: null,
      officerName: 'Olivia Officer',
      createdAt: '2026-07-01T09:21:00.000Z',
      appeal: null,
    },
    carPark: null,
    possibleDuplicates: [],
    photos: [],
    photosPurgedAt: null,
    audit: Array.from({ length: auditEntries }, (_, index) => entry(index)),
    carParkNames: {},
  };
}

describe('createPackRenderer', () => {
  const renderer = createPackRenderer({
    ...PACK_RENDERER_LIMITS,
    resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 },
  });
  afterAll(() => renderer.close());

  it('fails a pack that outgrows the heap limit alone, with EVIDENCE_PACK_FAILED, and makes the pack queued behind it', async () => {
    const runaway = renderer.render(packContent(60_000));
    const next = renderer.render(packContent(3));
    const failure = await runaway.then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'EVIDENCE_PACK_FAILED', status: 500, message: SERVER_MESSAGES.evidencePackFailed });
    const bytes = await next;
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  }, 120_000);

  it('stops a pack that runs past its time limit, with EVIDENCE_PACK_FAILED', async () => {
    const hurried = createPackRenderer({ ...PACK_RENDERER_LIMITS, timeLimitMs: 1 });
    try {
      await expect(hurried.render(packContent(3))).rejects.toMatchObject({ code: 'EVIDENCE_PACK_FAILED' });
    } finally {
      await hurried.close();
    }
  }, 60_000);
});
