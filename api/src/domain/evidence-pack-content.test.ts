import { describe, expect, it } from 'vitest';
import { amountDue, type PcnAuditEntry } from '@parkpatrol/shared';
import {
  appealFields,
  auditEntryText,
  coverFields,
  documentsField,
  formatPackTime,
  observationTimeline,
  photoCaption,
  photoEmbedding,
  toWinAnsi,
  type PackCarPark,
  type PackPcn,
  type PackPhoto,
} from './evidence-pack-content.ts';

const carPark: PackCarPark = {
  id: 'cp1',
  name: 'Riverside',
  siteCode: 'RV1',
  address: '1 Quay St',
  postcode: 'BS1 4DJ',
  considerationMinutes: 5,
  graceMinutes: 10,
  minimumsOverrideReason: null,
};

const pcn: PackPcn = {
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
};

const photo: PackPhoto = {
  mimeType: 'image/jpeg',
  sha256: 'a'.repeat(64),
  clientSha256: 'a'.repeat(64),
  takenAt: '2026-01-10T14:05:09.000Z',
  takenAtSource: 'camera',
  latitude: 51.4545,
  longitude: -2.5879,
  accuracyM: 8.4,
  shots: ['Number plate'],
  purgedAt: null,
  isFileIntact: true,
};

describe('toWinAnsi', () => {
  it('keeps what the standard fonts can draw, accents and typographic quotes included', () => {
    expect(toWinAnsi('Zoë Brontë – “café” £5 €2')).toBe('Zoë Brontë – “café” £5 €2');
  });

  it('turns letters the fonts lack into their plain letter, and anything else into ?', () => {
    expect(toWinAnsi('Łukasz Wałęsa Dvořák')).toBe('Lukasz Walesa Dvorák');
    expect(toWinAnsi('Parked 🚗 here ✅ 日本')).toBe('Parked ? here ? ??');
  });

  it('keeps line breaks and makes tabs and odd spaces plain spaces', () => {
    expect(toWinAnsi('one\r\ntwo\tthree\u2003four')).toBe('one\ntwo three four');
  });
});

describe('formatPackTime', () => {
  it('writes UK time with the zone in force: GMT in winter, BST in summer', () => {
    expect(formatPackTime('2026-01-10T14:05:09.000Z')).toBe('10 Jan 2026, 14:05:09 GMT');
    expect(formatPackTime('2026-07-01T09:00:00.000Z')).toBe('01 Jul 2026, 10:00:00 BST');
    expect(formatPackTime(null)).toBe('Not recorded');
  });
});

describe('observationTimeline', () => {
  // Photos 1 and 2 at the first visit, photo 3 at the second, after consideration and grace.
  const photoTimes = ['2026-07-01T09:00:30.000Z', '2026-07-01T09:01:00.000Z', '2026-07-01T09:18:00.000Z', null];

  it('shows both visits with their photos, and says the stay was kept', () => {
    const { rows, summary } = observationTimeline(pcn, carPark, photoTimes);
    expect(rows).toEqual([
      { time: '01 Jul 2026, 10:00:00 BST', event: 'Vehicle first seen by the officer (first visit: photos 1 and 2)' },
      { time: '01 Jul 2026, 10:05:00 BST', event: 'Consideration period ends (5 min)' },
      { time: '01 Jul 2026, 10:15:00 BST', event: 'Grace period ends (10 min more): earliest issue when a stay applies' },
      { time: '01 Jul 2026, 10:18:00 BST', event: 'Second visit: vehicle photographed still there (photo 3)' },
      { time: '01 Jul 2026, 10:20:00 BST', event: 'Notice issued' },
    ]);
    expect(summary[0]).toBe('Issued 20 min after the first sighting.');
    expect(summary[1]).toBe(
      'A stay applied and was kept: the officer came back after consideration and grace had passed (01 Jul 2026, 10:15:00 BST) and photographed the vehicle still there at 01 Jul 2026, 10:18:00 BST.',
    );
  });

  it('does not say the stay was kept when no photo was taken after it, however late the issue', () => {
    const { rows, summary } = observationTimeline(pcn, carPark, photoTimes.slice(0, 2));
    expect(rows.map((row) => row.event)).not.toContain(expect.stringMatching(/^Second visit/));
    expect(summary[1]).toMatch(/^A stay applied and was NOT kept: no photo was taken after consideration and grace had passed/);
  });

  it('says plainly when the wait was not kept, and when there is no first sighting to measure from', () => {
    const early = observationTimeline({ ...pcn, issuedAt: '2026-07-01T09:10:00.000Z' }, carPark, photoTimes);
    expect(early.summary[1]).toMatch(/^A stay applied and was NOT kept: A stay applies here/);
    const unseen = observationTimeline({ ...pcn, observedAt: null, stayApplies: false }, carPark, photoTimes);
    expect(unseen.rows).toEqual([{ time: '01 Jul 2026, 10:20:00 BST', event: 'Notice issued' }]);
    expect(unseen.summary[0]).toMatch(/No first sighting was recorded/);
  });

  it("names periods shorter than the Single Code's minimums with the car park's reason, or its lack", () => {
    expect(observationTimeline(pcn, carPark, photoTimes).summary.join(' ')).not.toMatch(/shorter than/);
    const noStopping = { ...carPark, considerationMinutes: 0, minimumsOverrideReason: 'No-stopping zone: no consideration period applies' };
    const { rows, summary } = observationTimeline(pcn, noStopping, photoTimes);
    expect(rows[1]).toEqual({ time: '01 Jul 2026, 10:00:00 BST', event: 'Consideration period ends (0 min)' });
    expect(summary).toContain(
      "This car park's periods are shorter than the Single Code of Practice's minimums: 0 min consideration (the minimum is 5). The reason recorded for the car park: No-stopping zone: no consideration period applies",
    );
    const stored = observationTimeline(pcn, { ...carPark, considerationMinutes: 2, graceMinutes: 1 }, photoTimes).summary;
    expect(stored).toContain(
      "This car park's periods are shorter than the Single Code of Practice's minimums: 2 min consideration (the minimum is 5) and 1 min grace (the minimum is 10). No reason was recorded for the car park.",
    );
    expect(stored.at(-1)).toMatch(/device did not report its clock/);
  });
});

describe('photoCaption', () => {
  it('gives every capture fact and the hash checks of a JPEG embedded as stored', () => {
    const caption = photoCaption(photo, 0, 4);
    expect(caption.title).toBe('Photo 1 of 4');
    expect(caption.sha256).toBe('a'.repeat(64));
    expect(caption.lines).toEqual([
      'Shows: Number plate',
      "Taken (reported by the device): 10 Jan 2026, 14:05:09 GMT (the device says from the camera's EXIF; the server found no capture time in the file)",
      'GPS position (reported by the device): 51.45450, -2.58790 (accuracy ±8 m)',
      "Device hash check: the device's SHA-256 matched the server's on receipt: the bytes were not changed in transit",
      'Stored file: read for this pack; it hashes to the SHA-256 recorded on receipt',
      "In this PDF: the stored JPEG bytes, unchanged, so the SHA-256 below can be rechecked from the PDF's image.",
    ]);
  });

  it("puts what the server read from the photo's EXIF beside the device's report, and says when they agree", () => {
    const lines = photoCaption(
      { ...photo, exif: { takenAt: '2026-01-10T14:06:00.000Z', latitude: 51.4546, longitude: -2.5879 } },
      0,
      1,
    ).lines;
    expect(lines).toContain("Taken (reported by the device): 10 Jan 2026, 14:05:09 GMT (the device says from the camera's EXIF)");
    expect(lines).toContain("Taken (the photo's own EXIF, read by the server): 10 Jan 2026, 14:06:00 GMT (agrees with the device)");
    expect(lines).toContain("GPS position (the photo's own EXIF, read by the server): 51.45460, -2.58790 (agrees with the device)");
  });

  it('says when a PNG is re-encoded, a HEIC kept out, a file changed or removed', () => {
    expect(photoEmbedding({ ...photo, mimeType: 'image/png' })).toBe('png');
    expect(photoCaption({ ...photo, mimeType: 'image/png' }, 0, 1).lines.at(-1)).toMatch(/re-encoded copy of the PNG/);
    expect(photoEmbedding({ ...photo, mimeType: 'image/heic' })).toBe('none');
    expect(photoCaption({ ...photo, mimeType: 'image/heic' }, 0, 1).lines.at(-1)).toMatch(
      /HEIC cannot be embedded in a PDF; the photo is kept in its original format/,
    );
    expect(photoCaption({ ...photo, isFileIntact: false }, 0, 1).lines).toContain(
      'Stored file: read for this pack; it does NOT hash to the SHA-256 recorded on receipt',
    );
    const purged = photoCaption({ ...photo, purgedAt: '2026-06-03T02:00:00.000Z', isFileIntact: null }, 0, 1);
    expect(purged.lines).toContain('Stored file: Photos removed under the retention policy on 3 June 2026.');
    expect(photoEmbedding({ ...photo, purgedAt: '2026-06-03T02:00:00.000Z', isFileIntact: null })).toBe('none');
  });
});

describe('auditEntryText', () => {
  const entry = (overrides: Partial<PcnAuditEntry>): PcnAuditEntry => ({
    id: 'e1',
    pcnId: 'p1',
    action: 'updated',
    actor: null,
    actorName: 'Ade Admin',
    changes: {},
    clockOffsetMs: null,
    createdAt: '2026-07-01T09:30:00.000Z',
    ...overrides,
  });

  it('writes each change in words, with car park names and times as people read them', () => {
    const text = auditEntryText(
      entry({
        changes: {
          carParkId: { from: 'cp0', to: 'cp1' },
          observedAt: { from: null, to: '2026-07-01T09:00:00.000Z' },
          status: { from: 'SUBMITTED', to: 'UNDER_REVIEW' },
        },
      }),
      { carParkName: (id) => (id === 'cp1' ? 'Riverside' : undefined) },
    );
    expect(text.heading).toBe('01 Jul 2026, 10:30:00 BST · Edited · by Ade Admin');
    expect(text.lines).toEqual([
      'Car park: cp0 -> Riverside',
      'First seen: 01 Jul 2026, 10:00:00 BST',
      'Status: Submitted -> Under Review',
    ]);
  });

  it('lists the photos a retention run removed, by hash', () => {
    const text = auditEntryText(
      entry({
        action: 'images_purged',
        actorName: 'Retention policy',
        changes: { images: { from: [{ sha256: 'b'.repeat(64), takenAt: null }], to: null }, retentionDays: { from: null, to: 180 } },
      }),
      { carParkName: () => undefined },
    );
    expect(text.heading).toBe('01 Jul 2026, 10:30:00 BST · Photos removed under the retention policy · by Retention policy');
    expect(text.lines).toEqual([
      `Photos: photo SHA-256 ${'b'.repeat(64)} (files removed)`,
      'Retention period (days): 180 days after closing',
    ]);
  });
});

describe('appealFields', () => {
  it('prints the appeal, each file with its hash, and the decision with its code', () => {
    const fields = appealFields({
      id: 'a1',
      reference: 'APL-00000042',
      pcnId: 'p1',
      pcnNumber: 'PCN-00000042',
      vehicleRegistration: 'AB12CDE',
      carParkName: 'Harbourside',
      receivedAt: '2026-07-10T08:00:00.000Z',
      respondBy: '2026-08-07',
      status: 'REJECTED',
      isLate: false,
      consideredAt: null,
      withdrawal: null,
      appellant: { name: 'Dana Driver', email: 'dana@example.com', address: '4 Mill Lane\nLeeds' },
      channel: 'ONLINE',
      earlierCharges: [],
      chargePence: 10_000,
      wasDriver: false,
      driver: { name: 'Sam Other', address: '1 High St' },
      reason: 'VALID_PERMIT',
      text: 'My permit was on the dashboard.',
      attachments: [
        { id: 'f1', originalName: 'permit.jpg', mimeType: 'image/jpeg', sizeBytes: 1234, sha256: 'ab'.repeat(32), purgedAt: null },
      ],
      decision: {
        outcome: 'REJECTED',
        reasons: 'The permit had expired.',
        reducedChargePence: null,
        decidedAt: '2026-07-20T10:00:00.000Z',
        decidedBy: 'Hal Handler',
        verificationCode: '1234567890',
        reducedHeldUntil: '2026-08-03',
        reducedPayableUntil: null,
        charterOutcome: null,
        appealsServiceUntil: '2026-08-17',
      },
    });
    const text = Object.fromEntries(fields.map((field) => [field.label, field.value]));
    expect(text['Appeal']).toContain('APL-00000042, received 10 Jul 2026');
    expect(text['Appellant']).toBe(
      'Dana Driver <dana@example.com> (online), 4 Mill Lane, Leeds; not the driver (named the driver: Sam Other, 1 High St)',
    );
    expect(text['Appeal attachments']).toBe(`1. permit.jpg (image/jpeg, 1234 bytes) SHA-256 ${'ab'.repeat(32)}`);
    expect(text['Appeal decision']).toMatch(/^Rejected, .* by Hal Handler$/);
    expect(text['Reasons given']).toBe('The permit had expired.');
    expect(text['Verification code']).toBe('1234567890');
  });

  it('prints a withdrawn appeal as withdrawn, with no decision, and the reduced amount it kept open', () => {
    const fields = appealFields({
      id: 'a2',
      reference: 'APL-00000043',
      pcnId: 'p2',
      pcnNumber: 'PCN-00000043',
      vehicleRegistration: 'AB12CDE',
      carParkName: 'Harbourside',
      receivedAt: '2026-07-10T08:00:00.000Z',
      respondBy: '2026-08-07',
      status: 'WITHDRAWN',
      isLate: false,
      consideredAt: null,
      withdrawal: { withdrawnAt: '2026-07-15T09:00:00.000Z', reducedHeldUntil: '2026-07-29' },
      appellant: { name: 'Dana Driver', email: 'dana@example.com', address: '4 Mill Lane' },
      channel: 'ONLINE',
      earlierCharges: [],
      chargePence: 10_000,
      wasDriver: true,
      driver: null,
      reason: 'SIGNS_UNCLEAR',
      text: 'The sign was hidden.',
      attachments: [],
      decision: null,
    });
    const text = Object.fromEntries(fields.map((field) => [field.label, field.value]));
    expect(text['Appeal decision']).toMatch(/^None: withdrawn by the appellant 15 Jul 2026.*, which ended the hold$/);
    expect(text['Reduced amount held until']).toBe('29 Jul 2026');
    expect(text['Verification code']).toBeUndefined();
  });
});

describe('the documents sent, in the pack', () => {
  const letter = {
    id: 'd1',
    pcnId: 'p1',
    kind: 'NOTICE_TO_KEEPER' as const,
    createdAt: '2026-02-04T12:00:00.000Z',
    postOn: '2026-02-06',
    sha256: 'a'.repeat(64),
    sizeBytes: 1000,
    mimeType: 'application/pdf',
    reference: 'D-1234ABCD',
    createdBy: { id: 'u1', name: 'Kay Admin' },
    fileName: 'notice-to-keeper-PCN-00000001-2026-02-06.pdf',
    purgedAt: null,
  };

  it('lists each with its kind, when it was made and dated, by whom, and its SHA-256; and says when a file no longer matches', () => {
    const field = documentsField([
      { ...letter, isFileIntact: true },
      { ...letter, id: 'd2', sha256: 'b'.repeat(64), isFileIntact: false },
      { ...letter, id: 'd3', kind: 'DECISION_LETTER', postOn: null, reference: 'APL-00000001', sha256: 'c'.repeat(64), isFileIntact: null },
    ]);
    const lines = field.value.split('\n');
    expect(field.label).toBe('Documents sent');
    expect(lines[0]).toBe(
      `1. Notice to keeper (D-1234ABCD), made 04 Feb 2026, 12:00:00 GMT by Kay Admin, dated and posted 6 Feb 2026: SHA-256 ${'a'.repeat(64)}`,
    );
    expect(lines[1]).toBe(
      `${lines[0]!.replace('1.', '2.').replace('a'.repeat(64), 'b'.repeat(64))} (THE STORED FILE NO LONGER MATCHES THIS HASH)`,
    );
    expect(lines[2]).toMatch(
      /^3\. Appeal decision letter \(APL-00000001\), made .* by Kay Admin: SHA-256 c{64} \(file removed under the retention policy\)$/,
    );
    expect(documentsField([]).value).toBe('(none kept)');
  });
});

describe('the period of parking and the amount on the cover', () => {
  it('prints the period from first seen and the amount from the one computation, less what was paid', () => {
    const amount = amountDue(
      {
        state: 'OUTSTANDING',
        chargePence: 10_000,
        reducedChargePence: 6_000,
        reducedWithinDays: 14,
        firstNoticeOn: '2026-07-01',
        payments: [{ amountPence: 2_500, paidOn: '2026-07-03' }],
        appeal: null,
      },
      '2026-07-05T10:00:00.000Z',
    );
    const fields = Object.fromEntries(coverFields({ ...pcn, amount }, carPark).map((field) => [field.label, field.value]));
    expect(fields['Period of parking']).toBe('from 10:00 to 10:20 on Wednesday 1 July 2026');
    expect(fields.Amount).toBe('Charge £100; reduced to £60 if paid by 15 Jul 2026; paid £25; £35 due as at 5 Jul 2026');
    expect(Object.fromEntries(coverFields(pcn, carPark).map((field) => [field.label, field.value])).Amount).toBe('Not recorded');
  });
});
