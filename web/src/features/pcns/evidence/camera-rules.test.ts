import { describe, expect, it } from 'vitest';
import { cameraErrorSentence, cameraUnavailableReason, nextShot, shotPrompt, shotsToWalk } from './camera-rules.ts';

const shots = (...lists: string[][]) => lists.map((list) => ({ shots: list }));
const ids = (items: ReadonlyArray<{ id: string }>) => items.map((item) => item.id);

describe('the shots the camera walks', () => {
  it('walks every shot of the offence in the checklist order when no photo is taken yet', () => {
    expect(ids(shotsToWalk('PARKING_WITHOUT_PERMIT', []))).toEqual([
      'number-plate',
      'vehicle-in-context',
      'signage',
      'windscreen-no-permit',
    ]);
  });

  it('skips the shots some photo already shows', () => {
    const walk = shotsToWalk('PARKING_WITHOUT_PERMIT', shots(['signage'], ['number-plate', 'vehicle-in-context']));
    expect(ids(walk)).toEqual(['windscreen-no-permit']);
  });

  it('walks nothing before an offence is chosen, or once every shot is taken', () => {
    expect(shotsToWalk('', [])).toEqual([]);
    expect(shotsToWalk('OTHER', shots(['number-plate', 'vehicle-in-context', 'contravention']))).toEqual([]);
  });

  it('goes from one shot to the next, and ends after the last', () => {
    const walk = shotsToWalk('PARKING_WITHOUT_PERMIT', []);
    expect(nextShot(walk, 0)?.id).toBe('vehicle-in-context');
    expect(nextShot(walk, 2)?.id).toBe('windscreen-no-permit');
    expect(nextShot(walk, 3)).toBeNull();
  });

  it('says which shot of how many the officer is on', () => {
    const walk = shotsToWalk('PARKING_WITHOUT_PERMIT', []);
    expect(shotPrompt(walk, 0)).toBe('Shot 1 of 4: Number plate');
    expect(shotPrompt(walk, 3)).toBe('Shot 4 of 4: Windscreen, no permit');
    expect(shotPrompt(walk, 4)).toBe('');
  });
});

describe('falling back to the phone’s own camera', () => {
  it('opens the camera only on a secure page of a browser that has getUserMedia', () => {
    expect(cameraUnavailableReason({ isSecureContext: true, hasGetUserMedia: true })).toBeNull();
    expect(cameraUnavailableReason({ isSecureContext: false, hasGetUserMedia: true })).toBe(
      "The camera cannot open on a page that is not secure. Use 'Take photo' on each row instead.",
    );
    expect(cameraUnavailableReason({ isSecureContext: true, hasGetUserMedia: false })).toBe(
      "This browser cannot open the camera inside the app. Use 'Take photo' on each row instead.",
    );
  });

  it('says in a plain sentence why the camera did not open', () => {
    expect(cameraErrorSentence(new DOMException('denied', 'NotAllowedError'))).toBe(
      "Camera access was refused. Use 'Take photo' on each row instead.",
    );
    expect(cameraErrorSentence(new DOMException('none', 'NotFoundError'))).toBe(
      "No camera was found on this phone. Use 'Take photo' on each row instead.",
    );
    expect(cameraErrorSentence(new DOMException('busy', 'NotReadableError'))).toBe(
      "The camera is in use by another app. Use 'Take photo' on each row instead.",
    );
    expect(cameraErrorSentence(new TypeError('no video'))).toBe("The camera could not be opened. Use 'Take photo' on each row instead.");
    expect(cameraErrorSentence('odd')).toBe("The camera could not be opened. Use 'Take photo' on each row instead.");
  });
});
