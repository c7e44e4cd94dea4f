import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { PhotoChecklist, type PhotoChecklistProps } from './photo-checklist.tsx';

const photos = [
  { id: 'a', name: 'plate.jpg', previewUrl: 'blob:http://localhost/a', shots: ['number-plate', 'vehicle-in-context'] },
  { id: 'b', name: 'sign.jpg', previewUrl: null, shots: ['signage'] },
];

const noop = () => undefined;
const render = (props: Partial<PhotoChecklistProps>) =>
  renderToStaticMarkup(
    <PhotoChecklist
      offenceType="PARKING_IN_NO_PARKING_ZONE"
      photos={photos}
      onTakeShot={noop}
      onChangeShots={noop}
      onRemovePhoto={noop}
      {...props}
    />,
  );

describe('PhotoChecklist', () => {
  it('lists the offence’s shots with hints and which photo covers each, in words', () => {
    const html = render({});
    expect(html).toContain('Number plate: <strong>Photo 1</strong>');
    expect(html).toContain('Signage: <strong>Photo 2</strong>');
    expect(html).toContain('The contravention: <strong>Missing</strong>');
    // A missing shot says what to take; a covered one has done with its hint.
    expect(html).toContain('What the vehicle is doing wrong, plainly in frame.');
    expect(html).not.toContain('The whole plate, sharp and readable.');
    expect(html).toContain('3 of 4 shots covered. Missing: The contravention.');
    expect(html).toContain('aria-live="polite"');
  });

  it('gives every shot its own rear-camera button, named for the shot', () => {
    const html = render({});
    expect(html.match(/capture="environment"/g)).toHaveLength(4);
    expect(html).toContain('aria-label="Take photo: Number plate"');
    expect(html).toContain('aria-label="Take photo: The contravention"');
  });

  it('shows each photo once, with a labelled group of checkboxes ticked for its shots and a remove button', () => {
    const html = render({});
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).toContain('alt="Photo 1: plate.jpg"');
    expect(html).toContain('aria-label="Photo 2: sign.jpg, no preview"');
    expect(html).toContain('Photo 1 shows');
    expect(html).toContain('Photo 2 shows');
    expect(html.match(/<fieldset/g)).toHaveLength(2);
    expect(html.match(/type="checkbox"/g)).toHaveLength(8);
    expect(html.match(/type="checkbox"[^>]*checked=""/g)).toHaveLength(3);
    expect(html).toContain('aria-label="Remove photo 2: sign.jpg"');
  });

  it('offers "Continue without" for OTHER only', () => {
    expect(render({ offenceType: 'OTHER', onChangeContinueWithoutMissing: noop })).toContain('Continue without: The contravention');
    expect(render({ onChangeContinueWithoutMissing: noop })).not.toContain('Continue without');
  });

  it('without a known offence shows the photos only, with nothing to mark', () => {
    const html = render({ offenceType: '' });
    expect(html).not.toContain('Photo checklist');
    expect(html).not.toContain('type="checkbox"');
    expect(html).toContain('alt="Photo 1: plate.jpg"');
  });
});
