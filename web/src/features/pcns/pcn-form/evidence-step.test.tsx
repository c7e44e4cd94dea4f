import { describe, expect, it } from 'vitest';
import { createRef } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createEmptyDraft, type PcnDraft } from '../pcn-draft.ts';
import { EvidenceStep } from './evidence-step.tsx';

const noop = () => undefined;
const render = (draft: PcnDraft) =>
  renderToStaticMarkup(
    <EvidenceStep
      draft={draft}
      hasError={false}
      pendingPhotos={0}
      inputRef={createRef()}
      onAddPhotos={noop}
      onRemovePhoto={noop}
      onRemoveExistingImage={noop}
      onChangeShots={noop}
      onChangeChecklistWaived={noop}
      onNext={noop}
    />,
  );

const existing = (id: string, shots: string[]) => ({ id, fileName: `${id}.jpg`, url: `https://example.test/${id}.jpg`, shots });

describe('EvidenceStep and the in-app camera', () => {
  it('offers the camera while a shot of the checklist is missing, beside the system picker', () => {
    const html = render({ ...createEmptyDraft(), offenceType: 'PARKING_WITHOUT_PERMIT' });
    expect(html).toContain('Open camera');
    expect(html).toContain('aria-label="Take photo: Number plate"');
    expect(html).toContain('Choose photos');
  });

  it('offers no camera before an offence is chosen, nor once every shot is taken', () => {
    expect(render(createEmptyDraft())).not.toContain('Open camera');
    const covered: PcnDraft = {
      ...createEmptyDraft(),
      offenceType: 'OTHER',
      existingImages: [existing('a', ['number-plate', 'vehicle-in-context']), existing('b', ['contravention'])],
    };
    const html = render(covered);
    expect(html).not.toContain('Open camera');
    expect(html).toContain('Choose photos');
  });
});
