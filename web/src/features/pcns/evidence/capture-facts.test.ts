import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeCaptureFacts, readDevicePosition, shortSha256, type GeolocationLike } from './capture-facts.ts';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const LONDON = { locale: 'en-GB', timeZone: 'Europe/London' };

function fakeGeolocation(
  behaviour: (success: PositionCallback, failure: PositionErrorCallback, options?: PositionOptions) => void,
): GeolocationLike & { options: PositionOptions[] } {
  const options: PositionOptions[] = [];
  return {
    options,
    getCurrentPosition(success, failure, opts) {
      options.push(opts ?? {});
      behaviour(success, failure ?? (() => undefined), opts);
    },
  };
}

const position = (latitude: number, longitude: number, accuracy: number) =>
  ({ coords: { latitude, longitude, accuracy } }) as GeolocationPosition;

afterEach(() => {
  vi.useRealTimers();
});

describe('readDevicePosition', () => {
  it('gives the position and its accuracy, asking for a recent fix with a short timeout', async () => {
    const geolocation = fakeGeolocation((success) => success(position(51.501364, -0.14189, 12.5)));
    await expect(readDevicePosition({ geolocation })).resolves.toEqual({ latitude: 51.501364, longitude: -0.14189, accuracyM: 12.5 });
    expect(geolocation.options[0]).toMatchObject({ enableHighAccuracy: true, timeout: 4000, maximumAge: 60_000 });
  });

  it('gives null when location is denied or unavailable, or there is no geolocation at all', async () => {
    const denied = fakeGeolocation((_, failure) => failure({ code: 1, message: 'denied' } as GeolocationPositionError));
    await expect(readDevicePosition({ geolocation: denied })).resolves.toBeNull();
    await expect(readDevicePosition({ geolocation: null })).resolves.toBeNull();
    const throwing = fakeGeolocation(() => {
      throw new Error('insecure context');
    });
    await expect(readDevicePosition({ geolocation: throwing })).resolves.toBeNull();
  });

  it('never waits past its timeout, even when the browser never answers (a prompt left open)', async () => {
    vi.useFakeTimers();
    const silent = fakeGeolocation(() => undefined);
    const result = readDevicePosition({ geolocation: silent, timeoutMs: 3000 });
    await vi.advanceTimersByTimeAsync(3000);
    await expect(result).resolves.toBeNull();
  });

  it('drops a fix vaguer than the API accepts, and nonsense coordinates', async () => {
    await expect(readDevicePosition({ geolocation: fakeGeolocation((s) => s(position(51.5, -0.1, 250_000))) })).resolves.toBeNull();
    await expect(readDevicePosition({ geolocation: fakeGeolocation((s) => s(position(NaN, -0.1, 5))) })).resolves.toBeNull();
  });
});

describe('describeCaptureFacts', () => {
  it('says the camera took the photo, where, and that the server verified its checksum', () => {
    const facts = describeCaptureFacts(
      {
        takenAt: '2025-03-14T09:26:53Z',
        takenAtSource: 'camera',
        latitude: 51.501364,
        longitude: -0.14189,
        accuracyM: 12.4,
        sha256: SHA,
        clientSha256: SHA.toUpperCase(),
      },
      LONDON,
    );
    expect(facts.taken).toBe('Taken by the camera at 14 Mar 2025, 09:26');
    expect(facts.position).toBe('51.501364, -0.141890 (accurate to 12 m)');
    expect(facts.shortSha256).toBe('a1b2c3d4…6d7e8f90');
    expect(facts.hashCheck).toBe('verified');
    expect(facts.hashCheckText).toBe('verified by the server');
  });

  it('says when the time is only when the photo was added, and what was not recorded', () => {
    const facts = describeCaptureFacts(
      { takenAt: '2025-06-02T13:20:00Z', takenAtSource: 'added', sha256: SHA, clientSha256: null },
      LONDON,
    );
    expect(facts.taken).toBe('Added at 02 Jun 2025, 14:20');
    expect(facts.position).toBe('Position not recorded');
    expect(facts.hashCheck).toBe('not-sent');
    expect(describeCaptureFacts({ takenAt: null, sha256: SHA }).taken).toBe('Time not recorded');
  });

  it('flags a checksum that differs from the server’s', () => {
    expect(describeCaptureFacts({ takenAt: null, sha256: SHA, clientSha256: '0'.repeat(64) }).hashCheck).toBe('mismatch');
    expect(shortSha256('abc')).toBe('abc');
  });
});
