import { describe, expect, it } from 'vitest';
import { draftFirstSeenAt, OBSERVATION_MESSAGES, PERIOD_MESSAGES, VALIDATION_MESSAGES, type Pcn } from '@parkpatrol/shared';
import { editBodyOf } from './api/submit-pcn.ts';
import {
  createDraftFromPcn,
  createEmptyDraft,
  errorsOnStep,
  firstStepWithError,
  reconcileErrors,
  validateDraft,
  type DraftErrors,
  type DraftPhoto,
  type PcnDraft,
} from './pcn-draft.ts';

const TAKEN_AT = '2025-06-01T09:30:00.000Z';

/** A photo as the form holds it once stored (bytes compressed, hashed and dated). */
function createDraftPhoto(file: File): DraftPhoto {
  return {
    id: crypto.randomUUID(),
    name: file.name,
    type: file.type,
    size: file.size,
    blob: file,
    takenAt: TAKEN_AT,
    takenAtSource: 'camera',
    sha256: 'a'.repeat(64),
    shots: [],
  };
}

function jpeg(name: string, size = 1000) {
  return new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
}

function completeDraft(): PcnDraft {
  return {
    // Begun a few minutes before the notice was served.
    ...createEmptyDraft(new Date('2025-06-01T09:20:00.000Z')),
    vehicleRegistration: 'ab12 cde',
    carParkId: 'cp1',
    offenceType: 'PARKING_WITHOUT_PERMIT',
    location: 'Level 2, bay 14',
    photos: [1, 2, 3, 4].map((n) => createDraftPhoto(jpeg(`p${n}.jpg`))),
    noticeServedBy: 'AFFIXED',
    noticeServedAt: TAKEN_AT,
  };
}

describe('PCN draft', () => {
  it('is one serialisable object with a UUID used as the idempotency key', () => {
    const draft = createEmptyDraft();
    expect(draft.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(structuredClone(draft)).toEqual(draft);
  });

  it('accepts a complete draft', () => {
    expect(validateDraft(completeDraft())).toEqual({});
  });

  it('puts each error on the step where its field lives', () => {
    const errors = validateDraft(createEmptyDraft());
    expect(errorsOnStep(errors, 0)).toEqual({
      vehicleRegistration: VALIDATION_MESSAGES.registrationRequired,
      carParkId: VALIDATION_MESSAGES.carParkRequired,
    });
    expect(errorsOnStep(errors, 1)).toEqual({
      offenceType: VALIDATION_MESSAGES.offenceTypeRequired,
      location: VALIDATION_MESSAGES.locationRequired,
    });
    expect(errorsOnStep(errors, 2)).toEqual({ images: VALIDATION_MESSAGES.imagesRequired });
    // How the notice was served is asked on Review & Submit.
    expect(errorsOnStep(errors, 3)).toEqual({ noticeServedBy: VALIDATION_MESSAGES.noticeServedByRequired });
    expect(firstStepWithError(errors)).toBe(0);
    expect(firstStepWithError(validateDraft({ ...completeDraft(), noticeServedBy: null }))).toBe(3);
  });

  it('puts the first sighting and the wait on the vehicle step, where the observation sits under the car park', () => {
    // As a refused notice comes back from the server: each message on its field.
    const refused: DraftErrors = {
      location: VALIDATION_MESSAGES.locationRequired,
      observedAt: PERIOD_MESSAGES.observedTooEarly,
      issuedAt: OBSERVATION_MESSAGES.observedAtRequiredForStay,
    };
    expect(firstStepWithError(refused)).toBe(0);
    expect(errorsOnStep(refused, 0)).toEqual({ observedAt: refused.observedAt, issuedAt: refused.issuedAt });
    expect(errorsOnStep(refused, 1)).toEqual({ location: VALIDATION_MESSAGES.locationRequired });
  });

  it("asks for a description of an 'Other' offence on the offence step, before it can be queued", () => {
    const errors = validateDraft({ ...completeDraft(), offenceType: 'OTHER', description: '  ' });
    expect(errors).toEqual({ description: VALIDATION_MESSAGES.descriptionRequiredForOther });
    expect(firstStepWithError(errors)).toBe(1);
    expect(validateDraft({ ...completeDraft(), offenceType: 'OTHER', description: 'Blocking the gate' })).toEqual({});
  });

  it('starts the period at first seen: the correction, else the sighting, else when the notice was begun; never after the service', () => {
    const draft = completeDraft();
    expect(draftFirstSeenAt(draft)).toBe('2025-06-01T09:20:00.000Z');
    expect(draftFirstSeenAt({ ...draft, observedAt: '2025-06-01T09:05:00.000Z' })).toBe('2025-06-01T09:05:00.000Z');
    expect(draftFirstSeenAt({ ...draft, observedAt: '2025-06-01T09:05:00.000Z', firstSeenAt: '2025-06-01T09:10:00.000Z' })).toBe(
      '2025-06-01T09:10:00.000Z',
    );
    const late = validateDraft({ ...draft, firstSeenAt: '2025-06-01T09:31:00.000Z' });
    expect(errorsOnStep(late, 3)).toEqual({ firstSeenAt: PERIOD_MESSAGES.firstSeenAfterService });
    // Nor more than a day before the notice (the server refuses a 1970 start too).
    expect(errorsOnStep(validateDraft({ ...draft, firstSeenAt: '1970-01-01T00:00:00.000Z' }), 3)).toEqual({
      firstSeenAt: PERIOD_MESSAGES.firstSeenTooEarly,
    });
    expect(validateDraft({ ...draft, firstSeenAt: '2025-05-31T22:00:00.000Z' })).toEqual({});
  });

  it('checks photo type, size and count', () => {
    const draft = completeDraft();
    expect(validateDraft({ ...draft, photos: draft.photos.slice(0, 3) }).images).toBe(VALIDATION_MESSAGES.imagesRequired);
    const gif = createDraftPhoto(new File([new Uint8Array(10)], 'x.gif', { type: 'image/gif' }));
    expect(validateDraft({ ...draft, photos: [...draft.photos, gif] }).images).toBe(VALIDATION_MESSAGES.imageWrongType);
    const huge = createDraftPhoto(jpeg('huge.jpg', 10 * 1024 * 1024 + 1));
    expect(validateDraft({ ...draft, photos: [...draft.photos, huge] }).images).toBe(VALIDATION_MESSAGES.imageTooLarge);
    const eleven = Array.from({ length: 11 }, (_, i) => createDraftPhoto(jpeg(`p${i}.jpg`)));
    expect(validateDraft({ ...draft, photos: eleven }).images).toBe(VALIDATION_MESSAGES.tooManyImages);
  });

  it('counts images already on the server when editing', () => {
    const pcn = {
      id: 'p1',
      vehicleRegistration: 'AB12CDE',
      carParkId: 'cp1',
      offenceType: 'OTHER',
      description: 'Blocking the gate',
      location: 'Bay 1',
      images: [1, 2, 3, 4].map((n) => ({ id: `i${n}`, fileName: `f${n}.jpg`, url: `/api/uploads/f${n}.jpg?sig=x` })),
      noticeToDriver: { servedBy: 'HANDED', servedAt: '2026-06-01T10:00:00.000Z' },
    } as unknown as Pcn;
    const draft = createDraftFromPcn(pcn);
    expect(draft.pcnId).toBe('p1');
    // The service comes with the notice, so an edit need not ask again.
    expect(draft).toMatchObject({ noticeServedBy: 'HANDED', noticeServedAt: '2026-06-01T10:00:00.000Z' });
    expect(validateDraft(draft)).toEqual({});
  });

  it('builds the edit body with photos, their capture facts, the first sighting and removed image ids, never moving issuedAt', async () => {
    const observedAt = '2025-06-01T09:20:00.000Z';
    const draft = { ...completeDraft(), observedAt, issuedAt: '2025-06-01T09:40:00.000Z', removeImageIds: ['old-1'] };
    draft.photos[0] = { ...draft.photos[0]!, latitude: 51.5, longitude: -0.12, accuracyM: 8, shots: ['number-plate'] };
    const form = editBodyOf(draft);
    expect(form.get('vehicleRegistration')).toBe('ab12 cde');
    expect(form.getAll('images')).toHaveLength(4);
    expect(form.getAll('imageTakenAt')).toEqual(Array(4).fill(TAKEN_AT));
    expect(form.getAll('imageTakenAtSource')).toEqual(Array(4).fill('camera'));
    expect(form.getAll('imageSha256')).toEqual(Array(4).fill('a'.repeat(64)));
    expect(form.get('observedAt')).toBe(observedAt);
    expect(form.get('issuedAt')).toBeNull();
    expect(form.getAll('imageLatitude')).toEqual(['51.5', '', '', '']);
    expect(form.getAll('imageShots')[0]).toBe('number-plate');
    expect(form.getAll('removeImageIds')).toEqual(['old-1']);
    const first = form.getAll('images')[0] as File;
    expect(first.name).toBe('p1.jpg');
  });
});

describe('reconcileErrors', () => {
  const before = createEmptyDraft(new Date('2026-11-25T10:00:00Z'), 'draft-1');

  it('drops an error as soon as its field is fixed, and keeps the others', () => {
    const after = { ...before, vehicleRegistration: 'AB12CDE' };
    const errors = { vehicleRegistration: VALIDATION_MESSAGES.registrationRequired, carParkId: VALIDATION_MESSAGES.carParkRequired };
    expect(reconcileErrors(errors, before, after, validateDraft(after))).toEqual({ carParkId: VALIDATION_MESSAGES.carParkRequired });
  });

  it('keeps a server message until its own field changes, and adds no new error while typing', () => {
    const after = { ...before, location: 'Level 2' };
    const errors = { description: 'The server says no' };
    expect(reconcileErrors(errors, before, after, validateDraft(after))).toEqual(errors);
    expect(reconcileErrors({}, before, after, validateDraft(after))).toEqual({});
  });

  it('updates the message when the field changed but is still wrong', () => {
    const after = { ...before, vehicleRegistration: '!!' };
    const fresh = validateDraft(after);
    expect(reconcileErrors({ vehicleRegistration: 'old' }, before, after, fresh)).toEqual({
      vehicleRegistration: fresh.vehicleRegistration,
    });
  });
});
