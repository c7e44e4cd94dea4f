import {
  ALLOWED_IMAGE_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_PCN,
  MIN_EVIDENCE_IMAGES,
  PCN_FIELD_STEPS,
  VALIDATION_MESSAGES,
  fieldErrors,
  draftFirstSeenAt,
  isFirstSeenAfterService,
  pcnFieldsSchema,
  PERIOD_MESSAGES,
  firstSightingProblem,
  type NoticeServedBy,
  type Pcn,
} from '@parkpatrol/shared';
import type { PhotoRecord } from '../../lib/local-db/records.ts';

/**
 * Everything the officer has entered for one notice, as the form sees it. It is kept in
 * IndexedDB (pcn-form/draft-store.ts): the fields as a draft row, each photo as its compressed
 * bytes; `blob` is made from those bytes for previews and never stored.
 */
export type DraftPhoto = {
  id: string;
  name: string;
  type: string;
  size: number;
  blob: Blob;
  /** When the photo was taken (EXIF), else when it was added, ISO-8601. */
  takenAt: string | null;
  takenAtSource?: 'camera' | 'added';
  /** Hex SHA-256 of the stored bytes; the server checks it on receipt. */
  sha256?: string;
  /** The device's position when the photo was added; null when unknown. */
  latitude?: number | null;
  longitude?: number | null;
  accuracyM?: number | null;
  /** Checklist shots the officer marked on this photo. */
  shots: string[];
};

/** An image already on the server (edit): shown from its signed URL, kept unless removed. */
export type ExistingImage = { id: string; fileName: string; url: string; shots?: string[] };

export type PcnDraftFields = {
  vehicleRegistration: string;
  carParkId: string;
  offenceType: string;
  description: string;
  location: string;
};

/** Evidence: observation, duplicate reason and checklist waiver, kept in the draft like the rest. */
export type PcnEvidenceFields = {
  /** First sighting (ISO), recorded by the officer; null until then. */
  observedAt: string | null;
  /** The officer's toggle; null follows the car park's stayAppliesByDefault. */
  stayApplies: boolean | null;
  duplicateReason: string;
  /** Why issue although the registration holds a permit here (decision 0041); '' when none. */
  permitOverrideReason?: string;
  /** OTHER only: "Continue without" the shots the checklist cannot know. */
  checklistWaived: boolean;
  /** When Submit was pressed (ISO); null until then. */
  issuedAt: string | null;
  /** When the observation's second visit is due (ISO); null when no stay applies (docs/decisions/0012). */
  observationDueAt?: string | null;
  /** 'OPEN' once the observation is recorded (registration, car park, a photo); kept on the phone and synced. */
  observationStatus?: 'OPEN' | 'GONE' | null;
  /** How the notice to driver was served, tapped on Review & Submit; null until then. */
  noticeServedBy?: NoticeServedBy | null;
  /** When that tap was made (ISO, device time): the notice was served (or the driver left) then. */
  noticeServedAt?: string | null;
  /** The start of the period of parking as the officer corrected it on Review & Submit; null follows draftFirstSeenAt's default. */
  firstSeenAt?: string | null;
};

export type PcnDraft = PcnDraftFields &
  PcnEvidenceFields & {
    /** UUID made on the device; sent as Idempotency-Key so a retry never makes a second PCN. */
    id: string;
    /** Set when the draft edits an existing PCN (PUT /pcns/{id}). */
    pcnId: string | null;
    /** PCN number of the edited PCN, for the list of open drafts. */
    pcnNumber?: string | null;
    step: number;
    photos: DraftPhoto[];
    existingImages: ExistingImage[];
    removeImageIds: string[];
    /** What the server said when it refused this notice from the outbox; the officer fixes and resends. */
    serverError?: { message: string; fields: Record<string, string> | null } | null;
    createdAt: string;
    updatedAt: string;
  };

export type DraftErrors = Partial<
  Record<
    | keyof PcnDraftFields
    | 'images'
    | 'observedAt'
    | 'issuedAt'
    | 'duplicateReason'
    | 'permitOverrideReason'
    | 'noticeServedBy'
    | 'firstSeenAt',
    string
  >
>;

export function newDraftId(): string {
  return crypto.randomUUID();
}

export function createEmptyDraft(now = new Date(), id = newDraftId()): PcnDraft {
  return {
    id,
    pcnId: null,
    vehicleRegistration: '',
    carParkId: '',
    offenceType: '',
    description: '',
    location: '',
    observedAt: null,
    stayApplies: null,
    duplicateReason: '',
    permitOverrideReason: '',
    checklistWaived: false,
    issuedAt: null,
    step: 0,
    photos: [],
    existingImages: [],
    removeImageIds: [],
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

export function createDraftFromPcn(pcn: Pcn, now = new Date()): PcnDraft {
  return {
    ...createEmptyDraft(now),
    pcnId: pcn.id,
    pcnNumber: pcn.pcnNumber,
    vehicleRegistration: pcn.vehicleRegistration,
    carParkId: pcn.carParkId,
    offenceType: pcn.offenceType,
    description: pcn.description ?? '',
    location: pcn.location ?? '',
    observedAt: pcn.observedAt ?? null,
    stayApplies: pcn.stayApplies ?? null,
    duplicateReason: pcn.duplicateReason ?? '',
    noticeServedBy: pcn.noticeToDriver?.servedBy ?? null,
    noticeServedAt: pcn.noticeToDriver?.servedAt ?? null,
    // An edit keeps the stored start of the period; the edit's own start is no part of it.
    firstSeenAt: pcn.firstSeenAt ?? pcn.observedAt ?? pcn.noticeToDriver?.servedAt ?? null,
    // A photo removed under the retention policy has no file left to preview (only closed notices lose them).
    existingImages: pcn.images.flatMap((image) =>
      image.url === null ? [] : [{ id: image.id, fileName: image.fileName, url: image.url, shots: image.shots ?? [] }],
    ),
  };
}

/** A stored photo as the form shows it: the preview Blob is made from the stored bytes. */
export function toDraftPhoto(photo: PhotoRecord): DraftPhoto {
  return {
    id: photo.id,
    name: photo.name,
    type: photo.type,
    size: photo.size,
    blob: new Blob([photo.bytes], { type: photo.type }),
    takenAt: photo.takenAt,
    takenAtSource: photo.takenAtSource,
    sha256: photo.sha256,
    latitude: photo.latitude ?? null,
    longitude: photo.longitude ?? null,
    accuracyM: photo.accuracyM ?? null,
    shots: photo.shots ?? [],
  };
}

export function countImages(draft: Pick<PcnDraft, 'photos' | 'existingImages'>): number {
  return draft.photos.length + draft.existingImages.length;
}

function isAllowedImage(photo: Pick<DraftPhoto, 'type' | 'name'>): boolean {
  if ((ALLOWED_IMAGE_TYPES as readonly string[]).includes(photo.type)) return true;
  // Some browsers report HEIC photos from iPhones with an empty type.
  return photo.type === '' && /\.heic$/i.test(photo.name);
}

function validateImages(draft: Pick<PcnDraft, 'photos' | 'existingImages'>): string | undefined {
  const count = countImages(draft);
  if (draft.photos.some((photo) => !isAllowedImage(photo))) return VALIDATION_MESSAGES.imageWrongType;
  if (draft.photos.some((photo) => photo.size > MAX_IMAGE_BYTES)) return VALIDATION_MESSAGES.imageTooLarge;
  if (count > MAX_IMAGES_PER_PCN) return VALIDATION_MESSAGES.tooManyImages;
  // A notice needs at least four photos as evidence (decision 0005).
  if (count < MIN_EVIDENCE_IMAGES) return VALIDATION_MESSAGES.imagesRequired;
  return undefined;
}

/** Every problem in the draft, by field, with the shared schema's messages. */
export function validateDraft(draft: PcnDraft): DraftErrors {
  const parsed = pcnFieldsSchema.safeParse({
    vehicleRegistration: draft.vehicleRegistration,
    carParkId: draft.carParkId,
    offenceType: draft.offenceType || undefined,
    description: draft.description,
    location: draft.location,
    noticeServedBy: draft.noticeServedBy ?? undefined,
  });
  const errors: DraftErrors = parsed.success ? {} : (fieldErrors(parsed.error) as DraftErrors);
  // The period of parking runs from first seen to the service: never backwards.
  if (draft.noticeServedAt && isFirstSeenAfterService(draftFirstSeenAt(draft), draft.noticeServedAt)) {
    errors.firstSeenAt = PERIOD_MESSAGES.firstSeenAfterService;
  }
  // Nor more than a day before it (FIRST_SIGHTING_WINDOW_MS): the server refuses such a start, and
  // a refused notice would wait in the outbox. The service stands in for the issue, made with it.
  const tooEarly =
    draft.noticeServedAt && draft.firstSeenAt ? firstSightingProblem('firstSeenAt', draft.firstSeenAt, draft.noticeServedAt) : null;
  if (!errors.firstSeenAt && tooEarly === PERIOD_MESSAGES.firstSeenTooEarly) errors.firstSeenAt = tooEarly;
  const imageError = validateImages(draft);
  if (imageError) errors.images = imageError;
  return errors;
}

/** The errors that belong to one wizard step (PCN_FIELD_STEPS), in the order fields appear. */
export function errorsOnStep(errors: DraftErrors, step: number): DraftErrors {
  const entries = Object.entries(errors).filter(([field]) => PCN_FIELD_STEPS[field as keyof typeof PCN_FIELD_STEPS] === step);
  return Object.fromEntries(entries) as DraftErrors;
}

/** The first step holding an error, or -1. */
export function firstStepWithError(errors: DraftErrors): number {
  const steps = Object.keys(errors)
    .map((field) => PCN_FIELD_STEPS[field as keyof typeof PCN_FIELD_STEPS])
    .filter((step): step is number => typeof step === 'number');
  return steps.length ? Math.min(...steps) : -1;
}

/** The error fields a change to the draft may have fixed, with what each one reads. */
const FIELDS_BEHIND_ERRORS: Record<keyof DraftErrors, (draft: PcnDraft) => unknown> = {
  vehicleRegistration: (d) => d.vehicleRegistration,
  carParkId: (d) => d.carParkId,
  offenceType: (d) => d.offenceType,
  description: (d) => d.description,
  location: (d) => d.location,
  images: (d) => [
    d.photos.map((p) => [p.id, p.type, p.size, p.shots.join()]),
    d.existingImages.map((i) => i.id),
    d.checklistWaived,
    d.offenceType,
  ],
  observedAt: (d) => [d.observedAt, d.stayApplies, d.carParkId],
  issuedAt: (d) => [d.observedAt, d.stayApplies, d.carParkId],
  duplicateReason: (d) => [d.duplicateReason, d.vehicleRegistration, d.carParkId],
  permitOverrideReason: (d) => [d.permitOverrideReason, d.vehicleRegistration, d.carParkId],
  noticeServedBy: (d) => d.noticeServedBy,
  firstSeenAt: (d) => [d.firstSeenAt, d.observedAt, d.noticeServedAt],
};

/**
 * Forgiving validation: after a change, an error whose field changed is replaced by
 * what the rules say now (gone when the field became valid); other errors stay as they are,
 * including the server's, which only a change to their own field can answer. No new errors
 * appear while typing: those wait for Next.
 */
export function reconcileErrors(errors: DraftErrors, before: PcnDraft, after: PcnDraft, fresh: DraftErrors): DraftErrors {
  const kept: DraftErrors = {};
  for (const [field, message] of Object.entries(errors) as Array<[keyof DraftErrors, string]>) {
    const read = FIELDS_BEHIND_ERRORS[field];
    const changed = JSON.stringify(read(before)) !== JSON.stringify(read(after));
    const next = changed ? fresh[field] : message;
    if (next) kept[field] = next;
  }
  return kept;
}
