import { describe, expect, it } from 'vitest';
import { appendEvidenceFields, deviceTimeHeader, formatDecimal, photoFactValues } from './evidence-multipart.ts';

const SHA_A = 'A'.repeat(64);
const SHA_B = 'b'.repeat(64);

const FACT_FIELDS = ['imageSha256', 'imageTakenAt', 'imageTakenAtSource', 'imageLatitude', 'imageLongitude', 'imageAccuracy', 'imageShots'];

describe('appendEvidenceFields', () => {
  it('appends the text fields and, per photo in order, one value of each fact (empty when unknown)', () => {
    const form = new FormData();
    form.append('vehicleRegistration', 'AB12CDE');
    form.append('images', new Blob([new Uint8Array([1])], { type: 'image/jpeg' }), 'one.jpg');
    form.append('images', new Blob([new Uint8Array([2])], { type: 'image/jpeg' }), 'two.jpg');
    appendEvidenceFields(form, {
      observedAt: '2025-06-02T14:17:00+01:00',
      issuedAt: '2025-06-02T13:33:10.000Z',
      stayApplies: true,
      duplicateReason: '  Left and came back  ',
      photos: [
        {
          sha256: SHA_A,
          takenAt: '2025-06-02T13:18:00Z',
          takenAtSource: 'camera',
          latitude: 51.501364,
          longitude: -0.14189,
          accuracyM: 12.46,
          shots: ['number-plate', 'signage'],
        },
        { sha256: SHA_B, takenAt: null, takenAtSource: 'added', latitude: null, longitude: null, accuracyM: null, shots: [] },
      ],
    });
    expect(form.get('observedAt')).toBe('2025-06-02T13:17:00.000Z');
    expect(form.get('issuedAt')).toBe('2025-06-02T13:33:10.000Z');
    expect(form.get('stayApplies')).toBe('true');
    expect(form.get('duplicateReason')).toBe('Left and came back');
    expect(form.getAll('imageSha256')).toEqual(['a'.repeat(64), SHA_B]);
    expect(form.getAll('imageTakenAt')).toEqual(['2025-06-02T13:18:00.000Z', '']);
    // A source without a time is refused by the API, so it goes with the time.
    expect(form.getAll('imageTakenAtSource')).toEqual(['camera', '']);
    expect(form.getAll('imageLatitude')).toEqual(['51.501364', '']);
    expect(form.getAll('imageLongitude')).toEqual(['-0.14189', '']);
    expect(form.getAll('imageAccuracy')).toEqual(['12.5', '']);
    expect(form.getAll('imageShots')).toEqual(['number-plate,signage', '']);
    expect(form.getAll('images')).toHaveLength(2);
    expect(form.get('vehicleRegistration')).toBe('AB12CDE');
  });

  it('writes the per-photo facts grouped photo by photo, in the API’s field order', () => {
    const form = appendEvidenceFields(new FormData(), { photos: [{ sha256: SHA_B }, { sha256: SHA_B }] });
    const names = [...form.keys()];
    expect(names).toEqual([...FACT_FIELDS, ...FACT_FIELDS]);
  });

  it('replaces facts an older builder already appended, so the server never gets more facts than photos', () => {
    const form = new FormData();
    form.append('observedAt', '2025-06-02T13:30:00.000Z');
    form.append('imageTakenAt', '2025-06-02T13:18:00.000Z');
    form.append('imageTakenAtSource', 'camera');
    form.append('imageSha256', SHA_B);
    appendEvidenceFields(form, {
      observedAt: '2025-06-02T13:17:00.000Z',
      photos: [{ sha256: SHA_B, takenAt: '2025-06-02T13:18:00Z', takenAtSource: 'camera' }],
    });
    expect(form.getAll('observedAt')).toEqual(['2025-06-02T13:17:00.000Z']);
    for (const field of FACT_FIELDS) expect(form.getAll(field)).toHaveLength(1);
  });

  it('sends a stay explicitly either way, and leaves out what is not known', () => {
    const off = appendEvidenceFields(new FormData(), { stayApplies: false, photos: [] });
    expect(off.get('stayApplies')).toBe('false');
    const unknown = appendEvidenceFields(new FormData(), {
      observedAt: null,
      issuedAt: undefined,
      stayApplies: null,
      duplicateReason: null,
      photos: [],
    });
    expect([...unknown.keys()]).toEqual([]);
    // An empty reason is still a value: on PUT it clears a stored reason.
    expect(appendEvidenceFields(new FormData(), { duplicateReason: '', photos: [] }).get('duplicateReason')).toBe('');
  });

  it('sends as unknown what the API would refuse, rather than losing the whole notice to a 400', () => {
    const values = photoFactValues({
      sha256: 'not-a-hash',
      takenAt: 'yesterday',
      takenAtSource: 'camera',
      latitude: 95,
      longitude: 0,
      accuracyM: 5,
      shots: ['number-plate', 'selfie'],
    });
    expect(values).toEqual({
      imageSha256: '',
      imageTakenAt: '',
      imageTakenAtSource: '',
      imageLatitude: '',
      imageLongitude: '',
      imageAccuracy: '',
      imageShots: 'number-plate',
    });
    expect(photoFactValues({ latitude: 51.5, longitude: -0.1, accuracyM: 150_000 }).imageLatitude).toBe('');
    expect(photoFactValues({ latitude: 51.5, longitude: null, accuracyM: 5 }).imageAccuracy).toBe('');
  });

  it('writes coordinates as plain decimals, never in exponent notation', () => {
    expect(photoFactValues({ latitude: 0.0000001, longitude: -1e-7, accuracyM: 0 })).toMatchObject({
      imageLatitude: '0.0000001',
      imageLongitude: '-0.0000001',
      imageAccuracy: '0',
    });
    expect(formatDecimal(-0.00000001, 7)).toBe('0');
    expect(formatDecimal(12, 1)).toBe('12');
  });
});

describe('deviceTimeHeader', () => {
  it('is the phone’s own clock as ISO-8601 in X-Device-Time', () => {
    expect(deviceTimeHeader(Date.parse('2025-06-02T13:33:10.123Z'))).toEqual({ 'X-Device-Time': '2025-06-02T13:33:10.123Z' });
  });
});
