import { describe, expect, it } from 'vitest';
import { OFFENCE_TYPES } from './offence-types.ts';
import { checklistCoverage, OFFENCE_PHOTO_CHECKLIST, parsePhotoShots, PHOTO_SHOT_TYPES, serialisePhotoShots } from './photo-checklist.ts';

describe('OFFENCE_PHOTO_CHECKLIST', () => {
  it('asks every offence for the plate and the vehicle in context, each item labelled and explained', () => {
    for (const offence of OFFENCE_TYPES) {
      const ids = OFFENCE_PHOTO_CHECKLIST[offence].map((item) => item.id);
      expect(ids).toContain('number-plate');
      expect(ids).toContain('vehicle-in-context');
      expect(new Set(ids).size).toBe(ids.length);
      for (const item of OFFENCE_PHOTO_CHECKLIST[offence]) {
        expect(PHOTO_SHOT_TYPES).toContain(item.id);
        expect(item.label).not.toBe('');
        expect(item.hint).not.toBe('');
      }
    }
  });

  it('asks a disabled bay also for its markings and the absence of a blue badge', () => {
    expect(OFFENCE_PHOTO_CHECKLIST.PARKING_IN_DISABLED_BAY.map((i) => i.id)).toEqual([
      'number-plate',
      'vehicle-in-context',
      'signage',
      'contravention',
      'bay-markings',
      'no-blue-badge',
    ]);
    expect(OFFENCE_PHOTO_CHECKLIST.PARKING_IN_FIRE_ROUTE.map((i) => i.id)).toContain('fire-route-markings');
    expect(OFFENCE_PHOTO_CHECKLIST.PARKING_WITHOUT_PERMIT.map((i) => i.id)).toContain('windscreen-no-permit');
    expect(OFFENCE_PHOTO_CHECKLIST.OTHER.map((i) => i.id)).toEqual(['number-plate', 'vehicle-in-context', 'contravention']);
  });
});

describe('checklistCoverage', () => {
  it('marks which photo covers which item and what is missing', () => {
    const coverage = checklistCoverage('PARKING_WITHOUT_PERMIT', [
      { shots: ['number-plate'] },
      { shots: ['vehicle-in-context', 'signage'] },
      { shots: [] },
      { shots: ['number-plate', 'bay-markings'] },
    ]);
    expect(coverage.items.map((i) => [i.id, i.covered, i.photoIndexes])).toEqual([
      ['number-plate', true, [0, 3]],
      ['vehicle-in-context', true, [1]],
      ['signage', true, [1]],
      ['windscreen-no-permit', false, []],
    ]);
    expect(coverage).toMatchObject({ isComplete: false, missing: ['windscreen-no-permit'] });
  });

  it('is complete when every item is covered, whatever else the photos show', () => {
    const coverage = checklistCoverage('OTHER', [{ shots: ['number-plate', 'vehicle-in-context', 'contravention', 'signage'] }]);
    expect(coverage).toMatchObject({ isComplete: true, missing: [] });
  });

  it('covers nothing without photos', () => {
    const coverage = checklistCoverage('PARKING_IN_DISABLED_BAY', []);
    expect(coverage.isComplete).toBe(false);
    expect(coverage.missing).toHaveLength(6);
  });
});

describe('parsePhotoShots', () => {
  it('reads comma-separated ids, ignoring spaces, repeats and empty entries', () => {
    expect(parsePhotoShots('number-plate, signage,,number-plate')).toEqual(['number-plate', 'signage']);
    expect(parsePhotoShots('')).toEqual([]);
  });

  it('refuses an unknown id', () => {
    expect(parsePhotoShots('number-plate,selfie')).toBeNull();
  });
});

describe('serialisePhotoShots', () => {
  it('writes known ids once each, comma-separated, and parsePhotoShots reads them back', () => {
    const value = serialisePhotoShots(['signage', 'number-plate', 'signage', ' contravention ']);
    expect(value).toBe('signage,number-plate,contravention');
    expect(parsePhotoShots(value)).toEqual(['signage', 'number-plate', 'contravention']);
  });

  it('drops ids the server would refuse and writes nothing for no shots', () => {
    expect(serialisePhotoShots(['number-plate', 'selfie', ''])).toBe('number-plate');
    expect(serialisePhotoShots([])).toBe('');
  });
});
