import { describe, expect, it } from 'vitest';
import { checklistCoverage } from '@parkpatrol/shared';
import { checklistProblem, continueWithoutLabel, coverageSummary, coverageText, listLabels, toggleShot } from './photo-checklist-rules.ts';

const shots = (...lists: string[][]) => lists.map((list) => ({ shots: list }));

describe('coverage texts', () => {
  it('names which photos cover a shot, and says Missing in words', () => {
    expect(coverageText({ covered: true, photoIndexes: [1] })).toBe('Photo 2');
    expect(coverageText({ covered: true, photoIndexes: [0, 2, 3] })).toBe('Photos 1, 3 and 4');
    expect(coverageText({ covered: false, photoIndexes: [] })).toBe('Missing');
    expect(listLabels(['Signage', 'Bay markings'])).toBe('Signage and Bay markings');
  });

  it('sums up what is covered and what is missing', () => {
    const coverage = checklistCoverage(
      'PARKING_IN_NO_PARKING_ZONE',
      shots(['number-plate'], ['vehicle-in-context', 'contravention'], [], []),
    );
    expect(coverageSummary(coverage)).toBe('3 of 4 shots covered. Missing: Signage.');
    const all = checklistCoverage('OTHER', shots(['number-plate', 'vehicle-in-context', 'contravention']));
    expect(coverageSummary(all)).toBe('All 3 shots covered.');
  });
});

describe('checklistProblem', () => {
  it('is satisfied when every shot the offence needs is on some photo', () => {
    expect(
      checklistProblem(
        'PARKING_IN_DISABLED_BAY',
        shots(['number-plate'], ['vehicle-in-context', 'signage'], ['contravention', 'bay-markings'], ['no-blue-badge']),
      ),
    ).toBeNull();
  });

  it('blocks with the missing shots named', () => {
    expect(
      checklistProblem('PARKING_IN_DISABLED_BAY', shots(['number-plate'], ['vehicle-in-context'], ['contravention'], ['signage'])),
    ).toBe(
      'Mark which photo shows each shot this offence needs. Missing: Bay markings and No blue badge. Take another photo if none of yours shows it.',
    );
  });

  it('ignores shots the offence does not ask for', () => {
    expect(
      checklistProblem('PARKING_WITHOUT_PERMIT', shots(['number-plate', 'bay-markings'], ['vehicle-in-context'], ['signage'], [])),
    ).toContain('Missing: Windscreen, no permit.');
  });

  it('lets OTHER continue without the missing shots only when the officer ticks it', () => {
    const photos = shots(['number-plate'], ['vehicle-in-context'], [], []);
    expect(checklistProblem('OTHER', photos)).toBe(
      "Mark which photo shows each shot this offence needs. Missing: The contravention. Take another photo if none of yours shows it. If it cannot be taken, tick 'Continue without: The contravention'.",
    );
    expect(checklistProblem('OTHER', photos, { continueWithoutMissing: true })).toBeNull();
    expect(continueWithoutLabel(checklistCoverage('OTHER', photos))).toBe('Continue without: The contravention');
  });

  it('gives no escape to the other offences', () => {
    expect(checklistProblem('PARKING_IN_FIRE_ROUTE', shots([]), { continueWithoutMissing: true })).toContain(
      'Missing: Number plate, Vehicle in context, Signage, The contravention and Fire route markings.',
    );
  });

  it('leaves an unchosen offence to the offence step', () => {
    expect(checklistProblem('', shots([]))).toBeNull();
  });
});

describe('toggleShot', () => {
  it('adds a ticked shot once and removes an unticked one', () => {
    expect(toggleShot([], 'signage', true)).toEqual(['signage']);
    expect(toggleShot(['signage'], 'signage', true)).toEqual(['signage']);
    expect(toggleShot(['number-plate', 'signage'], 'number-plate', false)).toEqual(['signage']);
    expect(toggleShot(['signage'], 'contravention', false)).toEqual(['signage']);
  });
});
