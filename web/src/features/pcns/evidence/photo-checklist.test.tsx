import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { PhotoChecklist } from './photo-checklist.tsx';

const photos = [
  { id: 'a', name: 'plate.jpg', previewUrl: 'blob:http://localhost/a', shots: ['number-plate', 'vehicle-in-context'] },
  { id: 'b', name: 'sign.jpg', previewUrl: null, shots: ['signage'] },
];

describe('PhotoChecklist', () => {
  it('lists the offence’s shots with hints and which photo covers each, in words', () => {
    const html = renderToStaticMarkup(<PhotoChecklist offenceType="PARKING_IN_NO_PARKING_ZONE" photos={photos} onChangeShots={() => undefined} />);
    expect(html).toContain('Number plate: <strong>Photo 1</strong>');
    expect(html).toContain('Signage: <strong>Photo 2</strong>');
    expect(html).toContain('The contravention: <strong>Missing</strong>');
    expect(html).toContain('The whole plate, sharp and readable.');
    expect(html).toContain('3 of 4 shots covered. Missing: The contravention.');
    expect(html).toContain('aria-live="polite"');
  });

  it('gives each photo a labelled group of checkboxes, ticked for its shots', () => {
    const html = renderToStaticMarkup(<PhotoChecklist offenceType="PARKING_IN_NO_PARKING_ZONE" photos={photos} onChangeShots={() => undefined} />);
    expect(html).toContain('Photo 1 shows');
    expect(html).toContain('Photo 2 shows');
    expect(html.match(/<fieldset/g)).toHaveLength(2);
    expect(html.match(/type="checkbox"/g)).toHaveLength(8);
    expect(html.match(/type="checkbox"[^>]*checked=""/g)).toHaveLength(3);
    expect(html).toContain('alt="Photo 1: plate.jpg"');
    expect(html).toContain('aria-label="Photo 2: sign.jpg, no preview"');
  });

  it('offers "Continue without" for OTHER only', () => {
    const other = renderToStaticMarkup(
      <PhotoChecklist offenceType="OTHER" photos={photos} onChangeShots={() => undefined} onChangeContinueWithoutMissing={() => undefined} />,
    );
    expect(other).toContain('Continue without: The contravention');
    const zone = renderToStaticMarkup(
      <PhotoChecklist offenceType="PARKING_IN_NO_PARKING_ZONE" photos={photos} onChangeShots={() => undefined} onChangeContinueWithoutMissing={() => undefined} />,
    );
    expect(zone).not.toContain('Continue without');
  });

  it('shows nothing before an offence is chosen, and the step’s message as an alert', () => {
    expect(renderToStaticMarkup(<PhotoChecklist offenceType="" photos={photos} onChangeShots={() => undefined} />)).toBe('');
    const html = renderToStaticMarkup(<PhotoChecklist offenceType="OTHER" photos={[]} onChangeShots={() => undefined} errorMessage="Missing: Number plate." />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Add photos above');
  });
});
