import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import { checksumMismatchMessage, readImageFacts, type RawImageFacts } from './image-facts.ts';

const SHA = 'AB'.repeat(32);

function raw(overrides: Partial<RawImageFacts> = {}): RawImageFacts {
  return {
    imageTakenAt: [],
    imageTakenAtSource: [],
    imageSha256: [],
    imageLatitude: [],
    imageLongitude: [],
    imageAccuracy: [],
    imageShots: [],
    ...overrides,
  };
}

describe('readImageFacts', () => {
  it('reads every fact per photo, in image order', () => {
    const result = readImageFacts(
      raw({
        imageTakenAt: ['2026-06-01T10:29:00+01:00', ''],
        imageTakenAtSource: ['camera', ''],
        imageSha256: [SHA, ''],
        imageLatitude: ['51.5072', ''],
        imageLongitude: ['-0.1276', ''],
        imageAccuracy: ['12.5', ''],
        imageShots: ['number-plate, signage', ''],
      }),
      2,
    );
    expect(result).toEqual({
      facts: [
        {
          takenAt: '2026-06-01T09:29:00.000Z',
          takenAtSource: 'camera',
          clientSha256: SHA.toLowerCase(),
          latitude: 51.5072,
          longitude: -0.1276,
          accuracyM: 12.5,
          shots: ['number-plate', 'signage'],
        },
        { takenAt: null, takenAtSource: null, clientSha256: null, latitude: null, longitude: null, accuracyM: null, shots: [] },
      ],
    });
  });

  it('treats facts left out for later photos as not known', () => {
    const result = readImageFacts(raw({ imageSha256: [SHA] }), 3);
    expect('facts' in result && result.facts.map((f) => f.clientSha256)).toEqual([SHA.toLowerCase(), null, null]);
  });

  it('names the field and the photo of a bad value', () => {
    const cases: Array<[Partial<RawImageFacts>, string, RegExp]> = [
      [{ imageTakenAtSource: ['', 'gallery'] }, 'imageTakenAtSource', /^Photo 2: imageTakenAtSource must be 'camera' or 'added'$/],
      [{ imageTakenAtSource: ['camera'] }, 'imageTakenAtSource', /^Photo 1: .*without imageTakenAt$/],
      [{ imageSha256: ['abc'] }, 'imageSha256', /^Photo 1: imageSha256 must be 64 hexadecimal digits/],
      [{ imageLatitude: ['91'], imageLongitude: ['0'] }, 'imageLatitude', /from -90 to 90/],
      [{ imageLatitude: ['1e1'], imageLongitude: ['0'] }, 'imageLatitude', /from -90 to 90/],
      [{ imageLatitude: ['51'], imageLongitude: ['-181'] }, 'imageLongitude', /from -180 to 180/],
      [{ imageLatitude: ['51'] }, 'imageLongitude', /together/],
      [{ imageLatitude: ['51'], imageLongitude: ['0'], imageAccuracy: ['-1'] }, 'imageAccuracy', /metres from 0/],
      [{ imageAccuracy: ['5'] }, 'imageAccuracy', /without a position/],
      [{ imageShots: ['number-plate,selfie'] }, 'imageShots', /^Photo 1: imageShots must be comma-separated shot types from: number-plate/],
    ];
    for (const [overrides, field, message] of cases) {
      const result = readImageFacts(raw(overrides), 2);
      expect('problem' in result).toBe(true);
      if ('problem' in result) {
        expect(result.problem.field).toBe(field);
        expect(result.problem.message).toMatch(message);
      }
    }
  });

  it('keeps the existing message for a bad photo time', () => {
    expect(readImageFacts(raw({ imageTakenAt: ['yesterday'] }), 1)).toEqual({
      problem: { field: 'imageTakenAt', message: SERVER_MESSAGES.imageTakenAtInvalid },
    });
  });

  it('refuses more values than photos', () => {
    const result = readImageFacts(raw({ imageShots: ['signage', 'signage'] }), 1);
    expect(result).toEqual({ problem: { field: 'imageShots', message: `imageShots: ${SERVER_MESSAGES.imageFactsTooMany}` } });
  });
});

describe('checksumMismatchMessage', () => {
  it('names the photo, counted from one', () => {
    expect(checksumMismatchMessage(2)).toBe('Photo 3 was changed in transit (checksum mismatch). Please send it again.');
  });
});
