import { DEVICE_TIME_HEADER, MAX_IMAGE_ACCURACY_M, PCN_MULTIPART_FIELDS, serialisePhotoShots } from '@parkpatrol/shared';

/**
 * The evidence fields of POST and PUT /pcns, written once for the form and the outbox.
 * Pure: no DOM, no Dexie, so it runs in the service worker too.
 *
 * The API refuses a whole notice for one malformed fact (a 400 the outbox cannot retry), so a
 * value the device got wrong is sent as "not known" (empty) rather than as is.
 */

export type EvidencePhotoFacts = {
  /** Hex SHA-256 of the exact bytes uploaded, computed when the photo was stored. */
  sha256?: string | null;
  takenAt?: string | null;
  takenAtSource?: 'camera' | 'added' | null;
  latitude?: number | null;
  longitude?: number | null;
  accuracyM?: number | null;
  /** Checklist shot ids (PHOTO_SHOT_TYPES). */
  shots?: readonly string[] | null;
};

/**
 * Field names match the draft's, so `appendEvidenceFields(form, { ...draft, photos })` works.
 * A text field left null or undefined is not sent: absent means "as before" on PUT, and an
 * empty duplicateReason on PUT would clear a stored reason.
 */
export type EvidenceFieldsInput = {
  observedAt?: string | null;
  /** When Submit was pressed: the notice is issued then, even if it is sent hours later. */
  issuedAt?: string | null;
  /** The effective value (officer's toggle, else the car park's default), sent explicitly. */
  stayApplies?: boolean | null;
  duplicateReason?: string | null;
  /** Only on a new notice: why issue despite a permit (the server checks again at filing). */
  permitOverrideReason?: string | null;
  /** How the notice to driver was served (AFFIXED, HANDED, DRIVE_OFF) and when. */
  noticeServedBy?: string | null;
  noticeServedAt?: string | null;
  /** The start of the period of parking, as the officer confirmed it on Review & Submit. */
  firstSeenAt?: string | null;
  /** The new photos, in the order their files are appended. */
  photos: readonly EvidencePhotoFacts[];
};

const SHA256_PATTERN = /^[0-9a-f]{64}$/i;

/** Plain decimal, never exponent notation (the API reads '1e-7' as invalid): at most `digits` decimals. */
export function formatDecimal(value: number, digits: number): string {
  const text = value
    .toFixed(digits)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

function isoOrEmpty(value: string | null | undefined): string {
  if (!value) return '';
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

/** One photo's facts as the API's strings, empty for "not known". */
export function photoFactValues(
  photo: EvidencePhotoFacts,
): Record<
  'imageSha256' | 'imageTakenAt' | 'imageTakenAtSource' | 'imageLatitude' | 'imageLongitude' | 'imageAccuracy' | 'imageShots',
  string
> {
  const takenAt = isoOrEmpty(photo.takenAt);
  const source = takenAt && (photo.takenAtSource === 'camera' || photo.takenAtSource === 'added') ? photo.takenAtSource : '';
  const { latitude, longitude, accuracyM } = photo;
  const hasPosition =
    typeof latitude === 'number' &&
    typeof longitude === 'number' &&
    Number.isFinite(latitude) &&
    Number.isFinite(longitude) &&
    Math.abs(latitude) <= 90 &&
    Math.abs(longitude) <= 180 &&
    // A fix vaguer than the API accepts is no position at all.
    !(typeof accuracyM === 'number' && accuracyM > MAX_IMAGE_ACCURACY_M);
  const hasAccuracy = hasPosition && typeof accuracyM === 'number' && Number.isFinite(accuracyM) && accuracyM >= 0;
  return {
    imageSha256: photo.sha256 && SHA256_PATTERN.test(photo.sha256) ? photo.sha256.toLowerCase() : '',
    imageTakenAt: takenAt,
    imageTakenAtSource: source,
    // Seven decimals is about a centimetre: more than any phone knows.
    imageLatitude: hasPosition ? formatDecimal(latitude, 7) : '',
    imageLongitude: hasPosition ? formatDecimal(longitude, 7) : '',
    imageAccuracy: hasAccuracy ? formatDecimal(accuracyM, 1) : '',
    imageShots: serialisePhotoShots(photo.shots ?? []),
  };
}

const PHOTO_FACT_FIELDS = [
  'imageSha256',
  'imageTakenAt',
  'imageTakenAtSource',
  'imageLatitude',
  'imageLongitude',
  'imageAccuracy',
  'imageShots',
] as const;

/**
 * Adds the evidence fields to a PCN's multipart body: observedAt, issuedAt, stayApplies,
 * duplicateReason and how the notice to driver was served when known, and for every photo, in order, one value of each fact field
 * (empty when not known), so the server pairs the n-th value with the n-th image.
 *
 * Values of these fields already in `form` are replaced, not doubled: a builder that still
 * appends observedAt, imageTakenAt, imageTakenAtSource or imageSha256 itself keeps working, and
 * the server never sees more facts than photos. The image files themselves stay the caller's.
 */
export function appendEvidenceFields(form: FormData, input: EvidenceFieldsInput): FormData {
  const text: Array<[string, string | null]> = [
    [PCN_MULTIPART_FIELDS.observedAt, input.observedAt ? isoOrEmpty(input.observedAt) || null : null],
    [PCN_MULTIPART_FIELDS.issuedAt, input.issuedAt ? isoOrEmpty(input.issuedAt) || null : null],
    [PCN_MULTIPART_FIELDS.stayApplies, typeof input.stayApplies === 'boolean' ? String(input.stayApplies) : null],
    [PCN_MULTIPART_FIELDS.duplicateReason, typeof input.duplicateReason === 'string' ? input.duplicateReason.trim() : null],
    [PCN_MULTIPART_FIELDS.permitOverrideReason, input.permitOverrideReason?.trim() || null],
    [PCN_MULTIPART_FIELDS.noticeServedBy, input.noticeServedBy || null],
    [PCN_MULTIPART_FIELDS.noticeServedAt, input.noticeServedAt ? isoOrEmpty(input.noticeServedAt) || null : null],
    [PCN_MULTIPART_FIELDS.firstSeenAt, input.firstSeenAt ? isoOrEmpty(input.firstSeenAt) || null : null],
  ];
  for (const [name, value] of text) if (value !== null) form.set(name, value);

  for (const field of PHOTO_FACT_FIELDS) form.delete(PCN_MULTIPART_FIELDS[field]);
  for (const photo of input.photos) {
    const values = photoFactValues(photo);
    for (const field of PHOTO_FACT_FIELDS) form.append(PCN_MULTIPART_FIELDS[field], values[field]);
  }
  return form;
}

/** A notice's own text fields, as the officer typed them. */
export type PcnTextFields = { vehicleRegistration: string; carParkId: string; offenceType: string; description: string; location: string };

/** A photo to upload: its bytes, its file name, and what the device knows about it. */
export type PcnBodyPhoto = EvidencePhotoFacts & { file: Blob; name: string };

/**
 * THE multipart body of POST and PUT /pcns, for the outbox's new notices and the form's edits
 * alike: the text fields trimmed, the photos in order with one value of each fact per photo
 * (appendEvidenceFields), and on an edit the ids of stored photos to remove.
 */
export function buildPcnFormData(input: {
  fields: PcnTextFields;
  photos: readonly PcnBodyPhoto[];
  evidence: Omit<EvidenceFieldsInput, 'photos'>;
  removeImageIds?: readonly string[];
}): FormData {
  const form = new FormData();
  const { fields } = input;
  form.append(PCN_MULTIPART_FIELDS.vehicleRegistration, fields.vehicleRegistration.trim());
  form.append(PCN_MULTIPART_FIELDS.carParkId, fields.carParkId);
  form.append(PCN_MULTIPART_FIELDS.offenceType, fields.offenceType);
  form.append(PCN_MULTIPART_FIELDS.description, fields.description.trim());
  form.append(PCN_MULTIPART_FIELDS.location, fields.location.trim());
  for (const photo of input.photos) form.append(PCN_MULTIPART_FIELDS.images, photo.file, photo.name);
  appendEvidenceFields(form, { ...input.evidence, photos: input.photos });
  for (const imageId of input.removeImageIds ?? []) form.append(PCN_MULTIPART_FIELDS.removeImageIds, imageId);
  return form;
}

/** The X-Device-Time header: the phone's own clock at sending, so the server can record its offset. */
export function deviceTimeHeader(now: Date | number = Date.now()): Record<string, string> {
  return { [DEVICE_TIME_HEADER]: new Date(now).toISOString() };
}
