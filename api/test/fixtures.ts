import { randomUUID } from 'node:crypto';
import jpeg from 'jpeg-js';
import {
  COLLECTION_SETTING_DEFAULTS,
  IDEMPOTENCY_KEY_HEADER,
  type OffenceType,
  type Pcn,
  type PcnImage,
  type PcnStatus,
} from '@parkpatrol/shared';
import { insertPcn } from '../src/repositories/pcn-writes.ts';
import { listUploadsFolder } from './support/upload-files.ts';
import type { TestApp } from './test-app.ts';

/** A real, decodable JPEG whose pixels (and so bytes and hash) differ with the seed. */
export function makeJpeg(seed = 1, size = 16): Uint8Array {
  const data = Buffer.alloc(size * size * 4);
  for (let i = 0; i < size * size; i++) {
    data[i * 4] = (seed * 37 + i) % 256;
    data[i * 4 + 1] = (seed * 91 + i * 3) % 256;
    data[i * 4 + 2] = (seed * 13) % 256;
    data[i * 4 + 3] = 255;
  }
  return new Uint8Array(jpeg.encode({ data, width: size, height: size }, 80).data);
}

/** A JPEG start followed by padding: enough for the size check, no need to encode megapixels. */
export function makeOversizedJpeg(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  out.set(makeJpeg(99));
  return out;
}

export type Upload = { bytes: Uint8Array; name?: string; type?: string };

export function jpegUpload(seed: number): Upload {
  return { bytes: makeJpeg(seed), name: `photo-${seed}.jpg`, type: 'image/jpeg' };
}

export type PcnFormInput = Partial<{
  vehicleRegistration: string;
  carParkId: string;
  offenceType: OffenceType;
  description: string;
  location: string;
  observedAt: string;
  issuedAt: string;
  noticeServedBy: string;
  noticeServedAt: string;
  firstSeenAt: string;
}> & { images?: Upload[]; imageTakenAt?: string[]; removeImageIds?: string[] };

/**
 * A PCN's multipart body as the officer's app sends it. Service of the notice to driver is
 * 'AFFIXED' unless the input names it; name it as undefined to send none.
 */
export function pcnForm(input: PcnFormInput): FormData {
  const form = new FormData();
  const { images = [], imageTakenAt = [], removeImageIds = [], ...named } = input;
  const fields = 'noticeServedBy' in named ? named : { ...named, noticeServedBy: 'AFFIXED' };
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  for (const image of images) {
    form.append('images', new Blob([image.bytes], { type: image.type ?? 'image/jpeg' }), image.name ?? 'photo.jpg');
  }
  for (const takenAt of imageTakenAt) form.append('imageTakenAt', takenAt);
  for (const id of removeImageIds) form.append('removeImageIds', id);
  return form;
}

export function validPcnFields(carParkId: string): PcnFormInput {
  return {
    vehicleRegistration: 'ab12 cde',
    carParkId,
    offenceType: 'PARKING_WITHOUT_PERMIT',
    description: 'No permit displayed',
    location: 'Bay 14, level 2',
    noticeServedBy: 'AFFIXED',
  };
}

/** POST /pcns as the sync engine sends it. */
export function postPcn(t: TestApp, token: string | undefined, input: PcnFormInput, key: string | null = randomUUID()) {
  return t.request('POST', '/pcns', {
    token,
    body: pcnForm(input),
    headers: key === null ? {} : { [IDEMPOTENCY_KEY_HEADER]: key },
  });
}

/** A PCN just made: none of its photos can have been removed under the retention policy yet, so each has a URL. */
export type NewPcn = Pcn & { images: Array<PcnImage & { url: string }> };

/** Creates a PCN through the API and returns it (throws on anything but 201). */
export async function createPcnViaApi(t: TestApp, token: string, carParkId: string, overrides: PcnFormInput = {}): Promise<NewPcn> {
  const res = await postPcn(t, token, { ...validPcnFields(carParkId), images: [jpegUpload(1), jpegUpload(2)], ...overrides });
  if (res.status !== 201) throw new Error(`create PCN failed: ${res.status} ${res.text}`);
  return res.json.data as NewPcn;
}

/**
 * Many PCNs straight through the repository in one transaction: list and search tests need
 * hundreds, and hundreds of multipart requests would test nothing more.
 */
export async function insertPcnsDirectly(
  t: TestApp,
  count: number,
  make: (index: number) => { createdBy: string; carParkId: string; vehicleRegistration: string; status?: PcnStatus; createdAt: string },
): Promise<Array<{ id: string; pcnNumber: string }>> {
  return t.db.transaction().execute(async (trx) => {
    const made: Array<{ id: string; pcnNumber: string }> = [];
    for (let index = 0; index < count; index++) {
      const spec = make(index);
      const id = randomUUID();
      const { pcnNumber } = await insertPcn(trx, {
        id,
        vehicleRegistration: spec.vehicleRegistration,
        carParkId: spec.carParkId,
        offenceType: 'OTHER',
        description: '',
        location: 'Somewhere',
        observedAt: null,
        noticeServedBy: 'AFFIXED',
        noticeServedAt: spec.createdAt,
        createdBy: spec.createdBy,
        idempotencyKey: null,
        requestHash: null,
        now: spec.createdAt,
      });
      if (spec.status && spec.status !== 'SUBMITTED') {
        await trx.updateTable('pcns').set({ status: spec.status }).where('id', '=', id).execute();
      }
      made.push({ id, pcnNumber });
    }
    return made;
  });
}

/** Every file in the upload folder, temporary ones included. */
/**
 * The files in the uploads folder, thumbnails aside: each thumbnail must sit beside its photo
 * (one left behind fails the test here), so a test that counts photos need not count them.
 */
export function listUploadFiles(t: TestApp): string[] {
  return listUploadsFolder(t.config.uploadsDir);
}

/** The operator's terms as an admin would set them. */
export function validOperatorTerms(overrides: Record<string, unknown> = {}) {
  return {
    creditorName: 'ParkPatrol Parking Ltd',
    creditorAddress: 'PO Box 123\nLeeds\nLS1 1AA',
    creditorPhone: '0113 496 0000',
    creditorEmail: 'charges@parkpatrol.example',
    creditorWebsite: 'https://parkpatrol.example/charge',
    howToPay: 'Online at parkpatrol.example/pay, or by phone on 0113 496 0000, quoting the charge reference.',
    appealsService: 'POPLA',
    appealsServiceContact: 'POPLA, PO Box 1270, Warrington WA4 9RL\nwww.popla.co.uk',
    ...COLLECTION_SETTING_DEFAULTS,
    ...overrides,
  };
}
