import type { OffenceType } from './offence-types.ts';

/**
 * Per-offence photo checklist. The four-photo minimum stays the rule; the
 * checklist makes the officer's four the right four. Each photo carries the shot types it shows
 * (multipart field `imageShots`, comma-separated ids), and coverage is worked out from those.
 */
export const PHOTO_SHOT_TYPES = [
  'number-plate',
  'vehicle-in-context',
  'signage',
  'contravention',
  'bay-markings',
  'no-blue-badge',
  'fire-route-markings',
  'windscreen-no-permit',
] as const;
export type PhotoShotType = (typeof PHOTO_SHOT_TYPES)[number];

export type PhotoChecklistItem = { id: PhotoShotType; label: string; hint: string };

const SHOTS: Record<PhotoShotType, PhotoChecklistItem> = {
  'number-plate': { id: 'number-plate', label: 'Number plate', hint: 'The whole plate, sharp and readable.' },
  'vehicle-in-context': {
    id: 'vehicle-in-context',
    label: 'Vehicle in context',
    hint: 'The whole vehicle with enough of its surroundings to show where it is parked.',
  },
  signage: { id: 'signage', label: 'Signage', hint: 'The sign with the terms that apply, readable, near the vehicle.' },
  contravention: { id: 'contravention', label: 'The contravention', hint: 'What the vehicle is doing wrong, plainly in frame.' },
  'bay-markings': { id: 'bay-markings', label: 'Bay markings', hint: 'The disabled bay markings around the vehicle.' },
  'no-blue-badge': {
    id: 'no-blue-badge',
    label: 'No blue badge',
    hint: 'The dashboard and windscreen showing no blue badge on display.',
  },
  'fire-route-markings': {
    id: 'fire-route-markings',
    label: 'Fire route markings',
    hint: 'The fire route markings or hatching under or beside the vehicle.',
  },
  'windscreen-no-permit': {
    id: 'windscreen-no-permit',
    label: 'Windscreen, no permit',
    hint: 'The windscreen showing no valid permit on display.',
  },
};

const pick = (...ids: PhotoShotType[]): PhotoChecklistItem[] => ids.map((id) => SHOTS[id]);

export const OFFENCE_PHOTO_CHECKLIST: Record<OffenceType, readonly PhotoChecklistItem[]> = {
  PARKING_IN_DISABLED_BAY: pick('number-plate', 'vehicle-in-context', 'signage', 'contravention', 'bay-markings', 'no-blue-badge'),
  PARKING_IN_FIRE_ROUTE: pick('number-plate', 'vehicle-in-context', 'signage', 'contravention', 'fire-route-markings'),
  PARKING_IN_NO_PARKING_ZONE: pick('number-plate', 'vehicle-in-context', 'signage', 'contravention'),
  PARKING_OUTSIDE_MARKED_BAY: pick('number-plate', 'vehicle-in-context', 'signage', 'contravention'),
  PARKING_WITHOUT_PERMIT: pick('number-plate', 'vehicle-in-context', 'signage', 'windscreen-no-permit'),
  OTHER: pick('number-plate', 'vehicle-in-context', 'contravention'),
};

export function isPhotoShotType(value: string): value is PhotoShotType {
  return (PHOTO_SHOT_TYPES as readonly string[]).includes(value);
}

/**
 * Reads one photo's `imageShots` value: comma-separated ids, spaces and repeats ignored, empty
 * for none. Returns null when any id is not a known shot type.
 */
export function parsePhotoShots(value: string): PhotoShotType[] | null {
  const ids = [
    ...new Set(
      value
        .split(',')
        .map((id) => id.trim())
        .filter((id) => id !== ''),
    ),
  ];
  return ids.every(isPhotoShotType) ? ids : null;
}

/**
 * One photo's `imageShots` value as the device sends it: known ids only, each once, in the order
 * given, comma-separated (empty for none). The inverse of parsePhotoShots; an unknown id would
 * make the server refuse the whole notice, so it is dropped here instead.
 */
export function serialisePhotoShots(shots: readonly string[]): string {
  return [...new Set(shots.map((id) => id.trim()).filter(isPhotoShotType))].join(',');
}

export type ChecklistCoverageItem = PhotoChecklistItem & {
  covered: boolean;
  /** Zero-based indexes of the photos that show this shot, in the order given. */
  photoIndexes: number[];
};

export type ChecklistCoverage = {
  items: ChecklistCoverageItem[];
  isComplete: boolean;
  missing: PhotoShotType[];
};

/** Which checklist items the photos cover; shots the offence does not ask for are ignored. */
export function checklistCoverage(offenceType: OffenceType, photos: ReadonlyArray<{ shots: readonly string[] }>): ChecklistCoverage {
  const items = OFFENCE_PHOTO_CHECKLIST[offenceType].map((item): ChecklistCoverageItem => {
    const photoIndexes = photos.flatMap((photo, index) => (photo.shots.includes(item.id) ? [index] : []));
    return { ...item, covered: photoIndexes.length > 0, photoIndexes };
  });
  const missing = items.filter((item) => !item.covered).map((item) => item.id);
  return { items, isComplete: missing.length === 0, missing };
}
