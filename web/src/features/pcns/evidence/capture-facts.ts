import { MAX_IMAGE_ACCURACY_M, type PcnImage } from '@parkpatrol/shared';
import { formatDateTimeIn, type ClockFormat } from './evidence-format.ts';

/**
 * Where the device was when a photo was taken, and the words the
 * officer's detail page uses for each photo's capture facts.
 */

export type DevicePosition = { latitude: number; longitude: number; accuracyM: number | null };

export type GeolocationLike = Pick<Geolocation, 'getCurrentPosition'>;

export type ReadDevicePositionOptions = {
  /** Defaults to navigator.geolocation; null means "none on this device". */
  geolocation?: GeolocationLike | null;
  /** Give up after this long, whatever the browser does. */
  timeoutMs?: number;
  /** A fix this recent is good enough: the officer is standing by the same car. */
  maximumAgeMs?: number;
};

export const POSITION_TIMEOUT_MS = 4000;
export const POSITION_MAXIMUM_AGE_MS = 60_000;

function defaultGeolocation(): GeolocationLike | null {
  return typeof navigator !== 'undefined' && navigator.geolocation ? navigator.geolocation : null;
}

function toPosition(coords: Pick<GeolocationCoordinates, 'latitude' | 'longitude' | 'accuracy'>): DevicePosition | null {
  const { latitude, longitude, accuracy } = coords;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  // A fix vaguer than the API accepts is not a position worth keeping as evidence.
  if (Number.isFinite(accuracy) && accuracy > MAX_IMAGE_ACCURACY_M) return null;
  return { latitude, longitude, accuracyM: Number.isFinite(accuracy) && accuracy >= 0 ? accuracy : null };
}

/**
 * The device's position, or null when location is denied, unavailable, or slow. Never rejects
 * and never waits longer than `timeoutMs`: the Geolocation API's own timeout does not count the
 * time a permission prompt stays open, and an officer must never wait on a fix to file a notice.
 * Call it alongside storing the photo, not before.
 */
export function readDevicePosition(options: ReadDevicePositionOptions = {}): Promise<DevicePosition | null> {
  const geolocation = options.geolocation === undefined ? defaultGeolocation() : options.geolocation;
  const timeoutMs = options.timeoutMs ?? POSITION_TIMEOUT_MS;
  if (!geolocation) return Promise.resolve(null);
  return new Promise((resolve) => {
    let isSettled = false;
    const finish = (position: DevicePosition | null) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      resolve(position);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    try {
      geolocation.getCurrentPosition(
        (position) => finish(toPosition(position.coords)),
        () => finish(null),
        { enableHighAccuracy: true, timeout: timeoutMs, maximumAge: options.maximumAgeMs ?? POSITION_MAXIMUM_AGE_MS },
      );
    } catch {
      // Some WebViews throw instead of calling the error callback (insecure context, policy).
      finish(null);
    }
  });
}

export type CaptureFactsImage = Pick<PcnImage, 'takenAt' | 'sha256'> &
  Partial<Pick<PcnImage, 'takenAtSource' | 'latitude' | 'longitude' | 'accuracyM' | 'clientSha256'>>;

export type HashCheck = 'verified' | 'mismatch' | 'not-sent';

export type CaptureFactsText = {
  /** 'Taken by the camera at 14 Mar 2025, 09:26', 'Added at …', or 'Time not recorded'. */
  taken: string;
  /** '51.501350, -0.141890 (accurate to 12 m)' or 'Position not recorded'. */
  position: string;
  hasPosition: boolean;
  /** 'a1b2c3d4…e5f6a7b8' */
  shortSha256: string;
  sha256: string;
  hashCheck: HashCheck;
  /** 'verified by the server', 'differs from the server's', 'not checked: the device sent no checksum'. */
  hashCheckText: string;
};

/** The first and last eight hex digits: enough to compare by eye, short enough to read aloud. */
export function shortSha256(sha256: string): string {
  return sha256.length > 20 ? `${sha256.slice(0, 8)}…${sha256.slice(-8)}` : sha256;
}

function describeTaken(image: CaptureFactsImage, format: ClockFormat): string {
  const when = image.takenAt ? formatDateTimeIn(image.takenAt, format) : '';
  if (!when) return 'Time not recorded';
  if (image.takenAtSource === 'camera') return `Taken by the camera at ${when}`;
  if (image.takenAtSource === 'added') return `Added at ${when}`;
  return `Taken at ${when}`;
}

/** Coordinates as text only: a map would send the evidence's position to another origin. */
function describePosition(image: CaptureFactsImage): { text: string; hasPosition: boolean } {
  const { latitude, longitude, accuracyM } = image;
  if (typeof latitude !== 'number' || typeof longitude !== 'number') return { text: 'Position not recorded', hasPosition: false };
  const accuracy = typeof accuracyM === 'number' ? ` (accurate to ${Math.round(accuracyM)} m)` : ' (accuracy not recorded)';
  return { text: `${latitude.toFixed(6)}, ${longitude.toFixed(6)}${accuracy}`, hasPosition: true };
}

export function describeCaptureFacts(image: CaptureFactsImage, format: ClockFormat = {}): CaptureFactsText {
  const position = describePosition(image);
  const hashCheck: HashCheck = !image.clientSha256
    ? 'not-sent'
    : image.clientSha256.toLowerCase() === image.sha256.toLowerCase()
      ? 'verified'
      : 'mismatch';
  const hashCheckText = {
    verified: 'verified by the server',
    mismatch: "differs from the server's",
    'not-sent': 'not checked: the device sent no checksum',
  }[hashCheck];
  return {
    taken: describeTaken(image, format),
    position: position.text,
    hasPosition: position.hasPosition,
    shortSha256: shortSha256(image.sha256),
    sha256: image.sha256,
    hashCheck,
    hashCheckText,
  };
}
