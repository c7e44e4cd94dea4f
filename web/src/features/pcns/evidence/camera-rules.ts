import { checklistCoverage, OFFENCE_PHOTO_CHECKLIST, type PhotoChecklistItem } from '@parkpatrol/shared';
import { isOffenceType } from './photo-checklist-rules.ts';

/**
 * The in-app camera's decisions, apart from the browser so they can be tested: which shots the
 * camera walks, whether it can open at all, what the officer is told when it cannot, and how big
 * one captured frame is (docs/decisions/0043-in-app-camera.md).
 */

/** The checklist's shots no photo shows yet, in the checklist's order: the camera walks these. */
export function shotsToWalk(offenceType: string, photos: ReadonlyArray<{ shots: readonly string[] }>): PhotoChecklistItem[] {
  if (!isOffenceType(offenceType)) return [];
  const { missing } = checklistCoverage(offenceType, photos);
  return OFFENCE_PHOTO_CHECKLIST[offenceType].filter((item) => missing.includes(item.id));
}

/** The shot after the one just taken, or null when the walk is over. */
export function nextShot(walk: readonly PhotoChecklistItem[], takenIndex: number): PhotoChecklistItem | null {
  return walk[takenIndex + 1] ?? null;
}

/** What the camera's heading says: 'Shot 2 of 4: Vehicle in context'. */
export function shotPrompt(walk: readonly PhotoChecklistItem[], index: number): string {
  const shot = walk[index];
  return shot ? `Shot ${index + 1} of ${walk.length}: ${shot.label}` : '';
}

export type CameraSupport = { isSecureContext: boolean; hasGetUserMedia: boolean };

/** The browser's side of it, read where it runs. */
export function cameraSupportHere(): CameraSupport {
  return {
    isSecureContext: typeof window !== 'undefined' && window.isSecureContext,
    hasGetUserMedia: typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function',
  };
}

/** After this sentence each row's 'Take photo' (the phone's own camera) is the way. */
const FALLBACK = "Use 'Take photo' on each row instead.";

/** Why the in-app camera cannot open before trying, in a plain sentence; null when it can. */
export function cameraUnavailableReason(support: CameraSupport): string | null {
  // Browsers only give the camera to a page served over HTTPS (or localhost).
  if (!support.isSecureContext) return `The camera cannot open on a page that is not secure. ${FALLBACK}`;
  if (!support.hasGetUserMedia) return `This browser cannot open the camera inside the app. ${FALLBACK}`;
  return null;
}

/** getUserMedia's refusal, in a plain sentence for the officer. */
export function cameraErrorSentence(error: unknown): string {
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return `Camera access was refused. ${FALLBACK}`;
    case 'NotFoundError':
    case 'OverconstrainedError':
      return `No camera was found on this phone. ${FALLBACK}`;
    case 'NotReadableError':
    case 'AbortError':
      return `The camera is in use by another app. ${FALLBACK}`;
    default:
      return `The camera could not be opened. ${FALLBACK}`;
  }
}
