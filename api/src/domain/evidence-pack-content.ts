import { distanceMetres, EXIF_DISTANCE_TOLERANCE_M, EXIF_TIME_TOLERANCE_MS, type ExifFacts } from './photo-exif.ts';
import {
  auditFieldLabel,
  permitCheckLines,
  type PermitCheckRecord,
  type CarPark,
  canIssue,
  describeClockOffset,
  earliestIssueTime,
  formatDuration,
  OFFENCE_TYPE_LABELS,
  PCN_AUDIT_ACTION_LABELS,
  UK_TIME_ZONE,
  PCN_STATUS_LABELS,
  pcnTitle,
  photosPurgedNotice,
  type OffenceType,
  type PcnAuditEntry,
  type PcnReference,
  type PcnStatus,
  type PhotoTakenAtSource,
  describeKeeperNotice,
  describeNoticeToDriver,
  type KeeperNotice,
  type NoticeToDriver,
  APPEAL_CHANNEL_LABELS,
  APPEAL_REASON_LABELS,
  APPEAL_STATUS_LABELS,
  APPEALS_CHARTER,
  formatPence,
  type Appeal,
  periodsUnderMinimums,
  SECTOR_LIMITS,
  SENT_DOCUMENT_KIND_LABELS,
  formatCalendarDate,
  type SentDocument,
  formatUkPeriod,
  type AmountDue,
} from '@parkpatrol/shared';

/**
 * What the evidence pack says, as lines of text: pure, so the words are tested apart
 * from the PDF drawing and the database. The layout only places what these functions return.
 */

/**
 * The pack's times are UK wall-clock times, as a motorist and the appeals services (POPLA, IAS)
 * read them, with GMT or BST written beside each so no reader has to guess the zone.
 */
export const EVIDENCE_PACK_TIME_ZONE = UK_TIME_ZONE;

const packTimeFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: EVIDENCE_PACK_TIME_ZONE,
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});
const packDateFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: EVIDENCE_PACK_TIME_ZONE,
  day: 'numeric',
  month: 'long',
  year: 'numeric',
});

/** '14 Mar 2026, 09:26:05 GMT'; 'Not recorded' for no time. */
export function formatPackTime(instant: string | Date | null | undefined): string {
  if (instant === null || instant === undefined) return NOT_RECORDED;
  const date = instant instanceof Date ? instant : new Date(instant);
  return Number.isNaN(date.getTime()) ? String(instant) : packTimeFormat.format(date);
}

export function formatPackDate(instant: string | Date): string {
  return packDateFormat.format(instant instanceof Date ? instant : new Date(instant));
}

const NOT_RECORDED = 'Not recorded';

/**
 * The characters the PDF's standard fonts can draw (WinAnsi: Latin-1 plus the Windows-1252
 * extras such as curly quotes, dashes and the euro sign). Anything else would make the writer
 * throw, so a name like 'Zoë' keeps its letter while an emoji or a Polish 'ł' becomes its
 * nearest plain form or '?'. Line breaks are the layout's business and pass through.
 */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
/** Letters of names we meet that have no Unicode decomposition to a plain letter. */
const PLAIN_LETTERS: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŧ: 'T', ŧ: 't' };

function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char);
}

export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    if (char === '\n' || isWinAnsi(char)) {
      out += char;
    } else if (char === '\t' || char === '\r' || /\s/u.test(char)) {
      out += char === '\r' ? '' : ' ';
    } else {
      // 'ő' decomposes to 'o' + accent, 'ł' does not (hence the table): keep the plain letter.
      const base = PLAIN_LETTERS[char] ?? char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every(isWinAnsi) ? base : '?';
    }
  }
  return out;
}

export type PackField = { label: string; value: string };

/** What the pack says of a car park: the shared entity's fields it prints. */
export type PackCarPark = Pick<
  CarPark,
  'id' | 'name' | 'siteCode' | 'address' | 'postcode' | 'considerationMinutes' | 'graceMinutes' | 'minimumsOverrideReason'
>;

export type PackPcn = {
  pcnNumber: string;
  vehicleRegistration: string;
  offenceType: OffenceType;
  description: string;
  location: string;
  status: PcnStatus;
  adminNotes: string | null;
  observedAt: string | null;
  issuedAt: string | null;
  /** The period of parking every document states: first seen to the service. */
  parkedFrom: string;
  parkedUntil: string;
  /** What the charge asks for as the pack is made (amountDue, as every document); null where no charge was recorded. */
  amount: AmountDue | null;
  stayApplies: boolean;
  clockOffsetMs: number | null;
  noticeToDriver: NoticeToDriver | null;
  keeperNotice: KeeperNotice;
  duplicateReason: string | null;
  /** The permit check the server made at filing (decision 0041); null for a notice filed before permits. */
  permitCheck?: PermitCheckRecord | null;
  officerName: string | null;
  createdAt: string;
  /** The motorist's appeal, its files' hashes and its decision, if there is one. */
  appeal: Appeal | null;
  /** The documents sent, as kept (decision 0025), and whether each stored file still matches its SHA-256 (null: removed). */
  documents?: ReadonlyArray<SentDocument & { isFileIntact: boolean | null }>;
};

/**
 * The documents sent, each with its SHA-256, so an assessor can check a letter the motorist holds
 * (or the operator's download of it) against what was kept.
 */
export function documentsField(documents: NonNullable<PackPcn['documents']>): PackField {
  return {
    label: 'Documents sent',
    value:
      documents.length === 0
        ? '(none kept)'
        : documents
            .map((document, index) => {
              const sent = document.postOn ? `, dated and posted ${formatCalendarDate(document.postOn)}` : '';
              const file =
                document.isFileIntact === null
                  ? ' (file removed under the retention policy)'
                  : document.isFileIntact
                    ? ''
                    : ' (THE STORED FILE NO LONGER MATCHES THIS HASH)';
              return `${index + 1}. ${SENT_DOCUMENT_KIND_LABELS[document.kind]}${document.reference ? ` (${document.reference})` : ''}, made ${formatPackTime(document.createdAt)} by ${document.createdBy.name}${sent}: SHA-256 ${document.sha256}${file}`;
            })
            .join('\n'),
  };
}

/** The appeal as the pack prints it: every statement an assessor needs to follow it. */
export function appealFields(appeal: Appeal): PackField[] {
  const decision = appeal.decision;
  return [
    {
      label: 'Appeal',
      value: `${appeal.reference}, received ${formatPackTime(appeal.receivedAt)}, to be answered by ${appeal.respondBy}: ${APPEAL_REASON_LABELS[appeal.reason]}`,
    },
    {
      label: 'Appellant',
      value: `${appeal.appellant.name}${appeal.appellant.email ? ` <${appeal.appellant.email}>` : ''} (${APPEAL_CHANNEL_LABELS[appeal.channel].toLowerCase()}), ${appeal.appellant.address.split('\n').join(', ')}; ${appeal.wasDriver ? 'the driver' : 'not the driver'}${appeal.driver ? ` (named the driver: ${appeal.driver.name}, ${appeal.driver.address.split('\n').join(', ')})` : ''}`,
    },
    ...(appeal.isLate
      ? [
          {
            label: 'Made late',
            value: `After the appeal period${appeal.consideredAt ? `; considered from ${formatPackTime(appeal.consideredAt)}` : ''}`,
          },
        ]
      : []),
    { label: "Appellant's words", value: appeal.text },
    {
      label: 'Appeal attachments',
      value:
        appeal.attachments.length === 0
          ? '(none)'
          : appeal.attachments
              .map((file, index) => `${index + 1}. ${file.originalName} (${file.mimeType}, ${file.sizeBytes} bytes) SHA-256 ${file.sha256}`)
              .join('\n'),
    },
    {
      label: 'Appeal decision',
      value: decision
        ? `${APPEAL_STATUS_LABELS[decision.outcome]}${decision.reducedChargePence !== null ? ` (${formatPence(decision.reducedChargePence)})` : ''}, ${formatPackTime(decision.decidedAt)}${decision.decidedBy ? ` by ${decision.decidedBy}` : ''}`
        : appeal.withdrawal
          ? `None: withdrawn by the appellant ${formatPackTime(appeal.withdrawal.withdrawnAt)}, which ended the hold`
          : 'Not yet decided: the charge is on hold',
    },
    ...(appeal.withdrawal?.reducedHeldUntil
      ? [{ label: 'Reduced amount held until', value: formatCalendarDate(appeal.withdrawal.reducedHeldUntil) }]
      : []),
    ...(decision?.reasons ? [{ label: 'Reasons given', value: decision.reasons }] : []),
    ...(decision?.verificationCode ? [{ label: 'Verification code', value: decision.verificationCode }] : []),
    ...(decision?.reducedPayableUntil
      ? [{ label: 'Reduced amount payable until', value: formatCalendarDate(decision.reducedPayableUntil) }]
      : []),
    ...(decision?.charterOutcome
      ? [{ label: 'Appeals Charter case followed', value: APPEALS_CHARTER[decision.charterOutcome].label }]
      : []),
  ];
}

export function coverFields(pcn: PackPcn, carPark: PackCarPark | null): PackField[] {
  return [
    { label: 'PCN number', value: pcnTitle(pcn.pcnNumber) },
    { label: 'Vehicle registration', value: pcn.vehicleRegistration },
    { label: 'Car park', value: carPark ? `${carPark.name} (site ${carPark.siteCode})` : 'Unknown car park' },
    { label: 'Car park address', value: carPark ? [carPark.address, carPark.postcode].filter(Boolean).join(', ') : NOT_RECORDED },
    { label: 'Offence', value: OFFENCE_TYPE_LABELS[pcn.offenceType] ?? pcn.offenceType },
    { label: 'Location in the car park', value: pcn.location || NOT_RECORDED },
    { label: 'Status', value: PCN_STATUS_LABELS[pcn.status] ?? pcn.status },
    { label: 'Officer', value: pcn.officerName ?? 'Account deleted' },
    { label: 'Period of parking', value: formatUkPeriod(pcn.parkedFrom, pcn.parkedUntil) },
    { label: 'Amount', value: describePackAmount(pcn.amount) },
    { label: 'First sighting', value: formatPackTime(pcn.observedAt) },
    { label: 'Issued', value: formatPackTime(pcn.issuedAt) },
    {
      label: 'Notice to driver',
      value: describeNoticeToDriver(pcn.noticeToDriver, formatPackTime),
    },
    { label: 'Notice to keeper', value: describeKeeperNotice(pcn.keeperNotice) },
    { label: 'Received by the server', value: formatPackTime(pcn.createdAt) },
    { label: "Officer's description", value: pcn.description || '(none)' },
    ...(pcn.adminNotes ? [{ label: 'Admin notes', value: pcn.adminNotes }] : []),
    ...(pcn.appeal ? appealFields(pcn.appeal) : []),
    ...(pcn.documents ? [documentsField(pcn.documents)] : []),
  ];
}

/** The charge, what was paid and what is due on the day the pack is made, from amountDue. */
export function describePackAmount(amount: AmountDue | null): string {
  if (!amount || amount.chargePence === null) return NOT_RECORDED;
  const parts = [`Charge ${formatPence(amount.chargePence)}${amount.reducedByAppeal ? ' (reduced on appeal)' : ''}`];
  if (amount.reduced) {
    parts.push(
      `reduced to ${formatPence(amount.reduced.amountPence)}${amount.reduced.until ? ` if paid by ${formatCalendarDate(amount.reduced.until)}` : ''}`,
    );
  }
  parts.push(`paid ${formatPence(amount.paidPence)}`);
  parts.push(
    `${formatPence(amount.amountDuePence)} due as at ${formatCalendarDate(amount.asOn)}${amount.onHold ? ' (on hold while the appeal is considered)' : ''}`,
  );
  return parts.join('; ');
}

export type TimelineRow = { time: string; event: string };

/**
 * Where the car park's periods are shorter than the Single Code's minimums, and the reason it
 * gives; null when they are not. A car park stored before the reason was asked for may have none,
 * and the pack says so rather than leaving the shortfall unremarked.
 */
export function shortPeriodsSentence(carPark: PackCarPark): string | null {
  const short = periodsUnderMinimums(carPark).map((field) =>
    field === 'considerationMinutes'
      ? `${carPark.considerationMinutes} min consideration (the minimum is ${SECTOR_LIMITS.minConsiderationMinutes})`
      : `${carPark.graceMinutes} min grace (the minimum is ${SECTOR_LIMITS.minGraceMinutes})`,
  );
  if (short.length === 0) return null;
  const reason = carPark.minimumsOverrideReason
    ? `The reason recorded for the car park: ${carPark.minimumsOverrideReason}`
    : 'No reason was recorded for the car park.';
  return `This car park's periods are shorter than the Single Code of Practice's minimums: ${short.join(' and ')}. ${reason}`;
}

/** "photo 3" or "photos 1, 2 and 4" (1-based, in filing order). */
function photoList(indexes: number[]): string {
  const numbers = indexes.map((index) => String(index + 1));
  if (numbers.length === 1) return `photo ${numbers[0]}`;
  return `photos ${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`;
}

/**
 * The observation timeline: first sighting, the end of consideration and of grace, the second
 * visit's photo, and issue, in time order, then one sentence on whether the stay was kept. A
 * stay counts as kept only when a photo taken at or after the due time shows the vehicle still
 * there (docs/decisions/0012). Without a first sighting the periods cannot be placed and the
 * pack says so rather than inventing them. Periods shorter than the Single Code's minimums are
 * named with the car park's reason. `photoTakenAts`: the photos' capture times in order.
 */
export function observationTimeline(
  pcn: PackPcn,
  carPark: PackCarPark | null,
  photoTakenAts: ReadonlyArray<string | null> = [],
): { rows: TimelineRow[]; summary: string[] } {
  const rows: Array<TimelineRow & { at: number }> = [];
  const add = (at: string | Date, event: string) => rows.push({ at: new Date(at).getTime(), time: formatPackTime(at), event });
  const periods = carPark ? { considerationMinutes: carPark.considerationMinutes, graceMinutes: carPark.graceMinutes } : null;
  const dueAt = pcn.observedAt && periods ? earliestIssueTime(pcn.observedAt, periods).getTime() : null;
  const taken = photoTakenAts.map((at, index) => ({ at: at ? Date.parse(at) : NaN, index })).filter((photo) => !Number.isNaN(photo.at));
  const firstVisit = dueAt === null ? [] : taken.filter((photo) => photo.at < dueAt).map((photo) => photo.index);
  const secondVisit = dueAt === null ? [] : taken.filter((photo) => photo.at >= dueAt);
  if (pcn.observedAt) {
    const photos = pcn.stayApplies && firstVisit.length > 0 ? ` (first visit: ${photoList(firstVisit)})` : '';
    add(pcn.observedAt, `Vehicle first seen by the officer${photos}`);
    if (periods) {
      const considerationEnds = earliestIssueTime(pcn.observedAt, { considerationMinutes: periods.considerationMinutes, graceMinutes: 0 });
      add(considerationEnds, `Consideration period ends (${periods.considerationMinutes} min)`);
      add(
        earliestIssueTime(pcn.observedAt, periods),
        `Grace period ends (${periods.graceMinutes} min more): earliest issue when a stay applies`,
      );
    }
  }
  if (pcn.stayApplies && secondVisit.length > 0) {
    add(
      new Date(secondVisit[0]!.at),
      `Second visit: vehicle photographed still there (${photoList(secondVisit.map((photo) => photo.index))})`,
    );
  }
  if (pcn.issuedAt) add(pcn.issuedAt, 'Notice issued');
  rows.sort((a, b) => a.at - b.at);

  const summary: string[] = [];
  if (pcn.observedAt && pcn.issuedAt) {
    summary.push(`Issued ${formatDuration(Date.parse(pcn.issuedAt) - Date.parse(pcn.observedAt))} after the first sighting.`);
  } else if (!pcn.observedAt) {
    summary.push('No first sighting was recorded, so the consideration and grace periods cannot be placed on the timeline.');
  }
  if (!pcn.stayApplies) {
    summary.push('No stay applied (the offence does not depend on how long the vehicle stayed), so there was no waiting period to keep.');
  } else if (periods && pcn.issuedAt) {
    const check = canIssue({ stayApplies: true, observedAt: pcn.observedAt, issuedAt: pcn.issuedAt, periods });
    if (!check.canIssue) summary.push(`A stay applied and was NOT kept: ${check.explanation}`);
    else if (secondVisit.length === 0)
      summary.push(
        `A stay applied and was NOT kept: no photo was taken after consideration and grace had passed (${formatPackTime(check.earliestIssueAt)}), so nothing shows the vehicle was still there.`,
      );
    else
      summary.push(
        `A stay applied and was kept: the officer came back after consideration and grace had passed (${formatPackTime(check.earliestIssueAt)}) and photographed the vehicle still there at ${formatPackTime(new Date(secondVisit[0]!.at))}.`,
      );
  }
  const shortPeriods = carPark ? shortPeriodsSentence(carPark) : null;
  if (shortPeriods) summary.push(shortPeriods);
  summary.push(
    pcn.clockOffsetMs === null
      ? "The officer's device did not report its clock when sending."
      : `The officer's device clock was ${describeClockOffset(pcn.clockOffsetMs)} when the notice was sent; the times above are the device's readings.`,
  );
  return { rows: rows.map(({ time, event }) => ({ time, event })), summary };
}

export type PackPhoto = {
  mimeType: string;
  sha256: string;
  clientSha256: string | null;
  takenAt: string | null;
  takenAtSource: PhotoTakenAtSource | null;
  latitude: number | null;
  longitude: number | null;
  accuracyM: number | null;
  /** The shots it shows, already in words. */
  shots: string[];
  purgedAt: string | null;
  /** Whether the file read for this pack hashes to the stored SHA-256; null when there is no file to read. */
  isFileIntact: boolean | null;
  /** What the server read from the file's own EXIF for this pack; null when there is none or no file. */
  exif?: ExifFacts | null;
};

/** How a photo goes into the PDF: the JPEG's own bytes, a re-encoded PNG, or not at all. */
export type PhotoEmbedding = 'jpeg' | 'png' | 'none';

export function photoEmbedding(photo: Pick<PackPhoto, 'mimeType' | 'purgedAt' | 'isFileIntact'>): PhotoEmbedding {
  if (photo.purgedAt !== null || photo.isFileIntact === null) return 'none';
  if (photo.mimeType === 'image/jpeg') return 'jpeg';
  if (photo.mimeType === 'image/png') return 'png';
  return 'none';
}

const FORMAT_NAMES: Record<string, string> = { 'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'image/heic': 'HEIC' };

/** Every fact of one photo, as caption lines, the SHA-256 last (the layout sets it in a fixed-width font). */
export function photoCaption(photo: PackPhoto, index: number, count: number): { title: string; lines: string[]; sha256: string } {
  const lines: string[] = [];
  lines.push(`Shows: ${photo.shots.length > 0 ? photo.shots.join(', ') : 'not marked by the officer'}`);
  // What the device sent is its word; what the server read from the file itself is said apart,
  // and a disagreement is flagged (the pack vouches only for what the server checked).
  const claimed =
    photo.takenAtSource === 'camera' ? "the device says from the camera's EXIF" : 'the device says when it was added to the notice';
  const exif = photo.exif ?? null;
  const noExifTime = photo.takenAt && !exif?.takenAt ? '; the server found no capture time in the file' : '';
  lines.push(
    `Taken (reported by the device): ${formatPackTime(photo.takenAt)}${photo.takenAt && photo.takenAtSource ? ` (${claimed}${noExifTime})` : ''}`,
  );
  if (exif?.takenAt) {
    const apart = photo.takenAt ? Math.abs(Date.parse(exif.takenAt) - Date.parse(photo.takenAt)) : 0;
    const verdict = !photo.takenAt
      ? ''
      : apart > EXIF_TIME_TOLERANCE_MS
        ? ` (DISAGREES with the device by ${formatDuration(apart)})`
        : ' (agrees with the device)';
    lines.push(`Taken (the photo's own EXIF, read by the server): ${formatPackTime(exif.takenAt)}${verdict}`);
  }
  const hasPosition = photo.latitude !== null && photo.longitude !== null;
  lines.push(
    `GPS position (reported by the device): ${hasPosition ? `${photo.latitude!.toFixed(5)}, ${photo.longitude!.toFixed(5)}${photo.accuracyM !== null ? ` (accuracy ±${Math.round(photo.accuracyM)} m)` : ' (accuracy not reported)'}` : NOT_RECORDED}`,
  );
  if (exif && exif.latitude !== null && exif.longitude !== null) {
    const exifPosition = { latitude: exif.latitude, longitude: exif.longitude };
    const apart = hasPosition ? distanceMetres({ latitude: photo.latitude!, longitude: photo.longitude! }, exifPosition) : null;
    const verdict =
      apart === null
        ? ''
        : apart > EXIF_DISTANCE_TOLERANCE_M
          ? ` (DISAGREES with the device by ${Math.round(apart)} m)`
          : ' (agrees with the device)';
    lines.push(
      `GPS position (the photo's own EXIF, read by the server): ${exif.latitude.toFixed(5)}, ${exif.longitude.toFixed(5)}${verdict}`,
    );
  }
  lines.push(`Device hash check: ${deviceHashText(photo)}`);
  lines.push(`Stored file: ${storedFileText(photo)}`);
  const format = FORMAT_NAMES[photo.mimeType] ?? photo.mimeType;
  const embedding = photoEmbedding(photo);
  if (embedding === 'jpeg')
    lines.push("In this PDF: the stored JPEG bytes, unchanged, so the SHA-256 below can be rechecked from the PDF's image.");
  if (embedding === 'png')
    lines.push('In this PDF: a re-encoded copy of the PNG for display; the SHA-256 below is of the stored PNG file, not of this copy.');
  if (embedding === 'none' && photo.purgedAt === null && photo.isFileIntact !== null) {
    lines.push(
      `In this PDF: not shown. ${format} cannot be embedded in a PDF; the photo is kept in its original format with the SHA-256 below.`,
    );
  }
  return { title: `Photo ${index + 1} of ${count}`, lines, sha256: photo.sha256 };
}

function deviceHashText(photo: PackPhoto): string {
  if (!photo.clientSha256)
    return "not sent by the device (photo sent before devices hashed, or by another client); the server's hash below is from receipt";
  return photo.clientSha256.toLowerCase() === photo.sha256.toLowerCase()
    ? "the device's SHA-256 matched the server's on receipt: the bytes were not changed in transit"
    : "the device's SHA-256 differed from the server's";
}

function storedFileText(photo: PackPhoto): string {
  if (photo.purgedAt !== null) return photosPurgedNotice(formatPackDate(photo.purgedAt));
  if (photo.isFileIntact === null) return 'missing from storage';
  return photo.isFileIntact
    ? 'read for this pack; it hashes to the SHA-256 recorded on receipt'
    : 'read for this pack; it does NOT hash to the SHA-256 recorded on receipt';
}

/** The possible-duplicate note and the officer's reason, or nothing when neither applies. */
export function duplicateNote(pcn: PackPcn, possibleDuplicates: readonly PcnReference[]): string[] {
  if (possibleDuplicates.length === 0 && !pcn.duplicateReason) return [];
  const lines: string[] = [];
  lines.push(
    possibleDuplicates.length > 0
      ? `Possible duplicate: the same vehicle, car park and day as ${possibleDuplicates.map((other) => pcnTitle(other.pcnNumber)).join(', ')}.`
      : 'Filed as a possible duplicate; no other notice for this parking event remains.',
  );
  lines.push(
    pcn.duplicateReason
      ? `Officer's reason for filing it anyway: ${pcn.duplicateReason}`
      : 'No reason was given with this notice: the first notice of a parking event needs none, and one filed offline may have been sent before the warning could show.',
  );
  return lines;
}

/**
 * The permit check made when the notice was filed: when, against the car park's register as it
 * then stood, what matched and the officer's reason to issue anyway. The Appeals Charter makes
 * a valid permit a reason to cancel, so an assessor reads here whether one was known.
 */
export function permitCheckNote(pcn: Pick<PackPcn, 'permitCheck'>): string[] {
  if (!pcn.permitCheck) return ['Filed before permits were checked at filing: no permit check is recorded for this notice.'];
  return permitCheckLines(pcn.permitCheck, formatPackTime);
}

export type AuditValueContext = { carParkName: (id: string) => string | undefined };

/** One audit entry as a heading ('time · action · by whom') and one line per recorded field. */
export function auditEntryText(entry: PcnAuditEntry, context: AuditValueContext): { heading: string; lines: string[] } {
  const action = PCN_AUDIT_ACTION_LABELS[entry.action] ?? entry.action;
  const device = entry.clockOffsetMs !== null ? ` · device clock ${describeClockOffset(entry.clockOffsetMs)}` : '';
  const heading = `${formatPackTime(entry.createdAt)} · ${action} · by ${entry.actorName || 'unknown'}${device}`;
  const lines: string[] = [];
  for (const [field, change] of Object.entries(entry.changes)) {
    const label = auditFieldLabel(field);
    const from = auditValue(field, change.from, context);
    const to = auditValue(field, change.to, context);
    if (change.from === null || change.from === undefined) lines.push(...labelled(label, to));
    else if (change.to === null || change.to === undefined)
      lines.push(...labelled(label, from, entry.action === 'images_purged' ? ' (files removed)' : ' (removed)'));
    else lines.push(`${label}: ${from.join('; ')} -> ${to.join('; ')}`);
  }
  return { heading, lines };
}

function labelled(label: string, values: string[], suffix = ''): string[] {
  if (values.length <= 1) return [`${label}: ${values[0] ?? '(none)'}${suffix}`];
  return [`${label}${suffix}:`, ...values.map((value) => `  ${value}`)];
}

/** A recorded value's label; the trail keeps what was written then, so a value no longer known prints as it is. */
function labelOf(labels: Readonly<Record<string, string>>, value: string): string {
  return labels[value] ?? value;
}

/** A recorded value in words; a list of photos gives one value per photo. */
function auditValue(field: string, value: unknown, context: AuditValueContext): string[] {
  if (value === null || value === undefined || value === '') return ['(none)'];
  if (field === 'images' && Array.isArray(value)) return value.map((image) => photoSummary(image));
  if (field === 'image') return [photoSummary(value)];
  if (field === 'status' && typeof value === 'string') return [labelOf(PCN_STATUS_LABELS, value)];
  if (field === 'offenceType' && typeof value === 'string') return [labelOf(OFFENCE_TYPE_LABELS, value)];
  if (field === 'carParkId' && typeof value === 'string') return [context.carParkName(value) ?? value];
  if ((field === 'observedAt' || field === 'issuedAt' || field === 'firstSeenAt') && typeof value === 'string')
    return [formatPackTime(value)];
  if (field === 'clockOffsetMs' && typeof value === 'number') return [describeClockOffset(value)];
  if (field === 'retentionDays' && typeof value === 'number') return [`${value} days after closing`];
  if (typeof value === 'boolean') return [value ? 'Yes' : 'No'];
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  return [JSON.stringify(value)];
}

function photoSummary(image: unknown): string {
  if (typeof image !== 'object' || image === null) return String(image);
  const { sha256, takenAt } = image as { sha256?: string; takenAt?: string | null };
  return `photo SHA-256 ${sha256 ?? 'unknown'}${takenAt ? `, taken ${formatPackTime(takenAt)}` : ''}`;
}

/** The line the pack shows where photos were removed under the retention policy. */
export function purgedPhotosLine(purgedAt: string): string {
  return `${photosPurgedNotice(formatPackDate(purgedAt))} Their capture facts and SHA-256 hashes are kept and listed below.`;
}
