import { PDFDocument } from '@cantoo/pdf-lib';
import { MAX_PACK_PNG_PIXELS, pcnTitle, type PcnAuditEntry, type PcnReference } from '@parkpatrol/shared';
import {
  auditEntryText,
  coverFields,
  duplicateNote,
  permitCheckNote,
  formatPackTime,
  observationTimeline,
  photoCaption,
  photoEmbedding,
  purgedPhotosLine,
  type AuditValueContext,
  type PackCarPark,
  type PackPcn,
  type PackPhoto,
} from '../../domain/evidence-pack-content.ts';
import { checkPng } from '../png-check.ts';
import { createPageFlow, embedPackFonts, stampPageFrames, type PageFlow } from './pdf-layout.ts';

export type EvidencePackContent = {
  productName: string;
  generatedAt: Date;
  pcn: PackPcn;
  carPark: PackCarPark | null;
  possibleDuplicates: readonly PcnReference[];
  photos: ReadonlyArray<PackPhoto & { bytes: Uint8Array | null }>;
  photosPurgedAt: string | null;
  audit: readonly PcnAuditEntry[];
  auditContext: AuditValueContext;
};

/** A photo gets most of a page: readable on screen and printed, with its caption beneath. */
const PHOTO_MAX_HEIGHT = 430;

/** Draws the pack: cover, observation timeline, photos, duplicate note, audit trail. */
export async function renderEvidencePack(content: EvidencePackContent): Promise<Uint8Array<ArrayBuffer>> {
  const doc = await PDFDocument.create();
  const title = `${pcnTitle(content.pcn.pcnNumber)} evidence pack`;
  doc.setTitle(title);
  doc.setSubject(`Evidence for ${pcnTitle(content.pcn.pcnNumber)}, vehicle ${content.pcn.vehicleRegistration}`);
  doc.setCreator(`${content.productName} Self Ticketing`);
  doc.setProducer('@cantoo/pdf-lib');
  doc.setCreationDate(content.generatedAt);
  doc.setModificationDate(content.generatedAt);
  const fonts = await embedPackFonts(doc);
  const flow = createPageFlow(doc, fonts);

  writeCover(flow, content);
  writeTimeline(flow, content);
  writePermitCheck(flow, content);
  await writePhotos(flow, doc, content);
  writeAuditTrail(flow, content);

  stampPageFrames(doc, fonts, {
    title: `${pcnTitle(content.pcn.pcnNumber)} · Evidence pack`,
    productName: content.productName,
    generatedAt: formatPackTime(content.generatedAt),
  });
  // A copy over a plain ArrayBuffer, which is what a Response body takes.
  return new Uint8Array(await doc.save());
}

function writeCover(flow: PageFlow, content: EvidencePackContent): void {
  flow.paragraph(pcnTitle(content.pcn.pcnNumber), { font: 'bold', size: 22, gapAfter: 2 });
  flow.paragraph(`Evidence pack for vehicle ${content.pcn.vehicleRegistration}`, { size: 13, isMuted: true, gapAfter: 10 });
  flow.heading('The notice');
  flow.fields(coverFields(content.pcn, content.carPark));
  const duplicates = duplicateNote(content.pcn, content.possibleDuplicates);
  if (duplicates.length > 0) {
    flow.heading('Possible duplicate');
    for (const line of duplicates) flow.paragraph(line, { gapAfter: 3 });
  }
  flow.gap(6);
  flow.paragraph(
    `Times are UK time (GMT or BST as marked). The first sighting, issue and photo times are the officer's device readings. This pack was generated from the records held by ${content.productName}; its audit trail is append-only.`,
    { size: 8.5, isMuted: true },
  );
}

/**
 * pdf-lib decodes a PNG whole to re-compress it: about twelve bytes a pixel while it does, in
 * ArrayBuffers outside the JavaScript heap (so the worker's heap limit does not see them; measured
 * at +190 MB for one 16-megapixel PNG with the heap at 11 MB). So a PNG is drawn only when the
 * decoder will decode what its one header says (services/png-check.ts: a photo stored before that
 * check, or put in storage some other way, is judged again here), and while the pack's budget of
 * decoded pixels (MAX_PACK_PNG_PIXELS) lasts. Each is written into the PDF as soon as it is
 * embedded, so its decoded pixels are freed before the next is decoded rather than held to the end.
 */
async function pngDrawVerdict(bytes: Uint8Array, pixelsLeft: number): Promise<{ pixels: number } | { notice: string }> {
  const verdict = await checkPng(bytes);
  if (!('problem' in verdict)) {
    return verdict.pixels <= pixelsLeft
      ? { pixels: verdict.pixels }
      : {
          notice:
            'This PNG is not drawn: the PNGs drawn above used up the pixels one pack may decode. It is kept as received, with the SHA-256 below.',
        };
  }
  switch (verdict.problem) {
    case 'TOO_MANY_PIXELS':
      return {
        notice:
          'This PNG is too large to draw in the PDF: drawing it means decoding every pixel. It is kept as received, with the SHA-256 below.',
      };
    case 'HEADER_NOT_SINGLE':
    case 'ANIMATED':
    case 'UNPACKS_BEYOND_HEADER':
      return {
        notice:
          'This PNG is not drawn: it would decode to more than its header shows (a second header, animation frames, or more data than declared). It is kept as received, with the SHA-256 below.',
      };
    case 'DAMAGED':
    case 'NOT_STANDARD':
      return { notice: COULD_NOT_DRAW };
  }
}

const COULD_NOT_DRAW =
  'This photo could not be drawn in the PDF: the stored file is not a complete image. It is kept as received, with the SHA-256 below.';

function writeTimeline(flow: PageFlow, content: EvidencePackContent): void {
  const { rows, summary } = observationTimeline(
    content.pcn,
    content.carPark,
    content.photos.map((photo) => photo.takenAt),
  );
  flow.heading('Observation timeline');
  if (rows.length > 0)
    flow.fields(
      rows.map((row) => ({ label: row.time, value: row.event })),
      170,
    );
  flow.gap(4);
  for (const line of summary) flow.paragraph(line, { gapAfter: 3 });
}

/** The permit check made at filing (decision 0041), after the timeline: the photos open a page of their own. */
function writePermitCheck(flow: PageFlow, content: EvidencePackContent): void {
  flow.gap(6);
  flow.heading('Permit check');
  for (const line of permitCheckNote(content.pcn)) flow.paragraph(line, { gapAfter: 3 });
}

async function writePhotos(flow: PageFlow, doc: PDFDocument, content: EvidencePackContent): Promise<void> {
  const count = content.photos.length;
  const hasPictures = content.photos.some((photo) => photoEmbedding(photo) !== 'none');
  // Photos open a page of their own, so the section title never sits alone above a page break.
  if (hasPictures) flow.startPage();
  flow.heading(count === 0 ? 'Photos' : `Photos (${count})`);
  if (count === 0) {
    flow.paragraph('No photos were filed with this notice.');
    return;
  }
  if (content.photosPurgedAt) flow.notice(purgedPhotosLine(content.photosPurgedAt));
  let isFirstOnPage = true;
  let pngPixelsLeft = MAX_PACK_PNG_PIXELS;
  for (const [index, photo] of content.photos.entries()) {
    const embedding = photoEmbedding(photo);
    const caption = photoCaption(photo, index, count);
    // One photo per page at a readable size; captions without a picture flow on.
    if (embedding !== 'none' && !isFirstOnPage) flow.startPage();
    isFirstOnPage = false;
    flow.ensureSpace(130);
    flow.paragraph(caption.title, { font: 'bold', size: 12, gapAfter: 4 });
    const png = embedding === 'png' && photo.bytes ? await pngDrawVerdict(photo.bytes, pngPixelsLeft) : null;
    if (png && 'notice' in png) {
      flow.notice(png.notice);
    } else if (embedding !== 'none' && photo.bytes) {
      // embedJpg stores the JPEG's own bytes as the image stream (DCTDecode), so the hash can be
      // rechecked from the PDF; a PNG is decoded and re-compressed, and its caption says so.
      try {
        if (png) pngPixelsLeft -= png.pixels;
        const embedded = embedding === 'jpeg' ? await doc.embedJpg(photo.bytes) : await doc.embedPng(photo.bytes);
        await embedded.embed();
        flow.image(embedded, PHOTO_MAX_HEIGHT);
      } catch {
        // The type was checked by its first bytes only; a damaged file must not cost the whole pack.
        flow.notice(COULD_NOT_DRAW);
      }
    }
    for (const line of caption.lines) flow.paragraph(line, { size: 9.5, gapAfter: 1 });
    flow.ensureSpace(30);
    flow.paragraph('SHA-256 recorded on receipt:', { size: 9.5, gapAfter: 0 });
    flow.paragraph(caption.sha256, { font: 'mono', size: 9, gapAfter: 10 });
  }
}

function writeAuditTrail(flow: PageFlow, content: EvidencePackContent): void {
  flow.startPage();
  flow.heading('Audit trail');
  flow.paragraph('Every recorded change to this notice, oldest first. Entries cannot be edited or deleted.', {
    size: 9,
    isMuted: true,
    gapAfter: 6,
  });
  if (content.audit.length === 0) {
    flow.paragraph('Nothing has been recorded.');
    return;
  }
  for (const entry of content.audit) {
    const { heading, lines } = auditEntryText(entry, content.auditContext);
    flow.ensureSpace(40);
    flow.paragraph(heading, { font: 'bold', size: 9.5, gapAfter: 1 });
    for (const line of lines) flow.paragraph(line, { size: 9, indent: 12, gapAfter: 0 });
    flow.gap(7);
  }
}
