import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { StorageWarning } from './storage-warning.tsx';

const render = (props: Parameters<typeof StorageWarning>[0]) => renderToStaticMarkup(<StorageWarning {...props} />);

describe('StorageWarning', () => {
  it('says it in one line with Why?, which opens the explanation (closed at first)', () => {
    const html = render({ unsentCount: 2, persisted: false, onAsk: () => undefined });
    expect(html).toContain('Unsent notices may be lost if the phone fills up.');
    expect(html).toMatch(
      /<button type="button" class="storage-warning__why" aria-expanded="false" aria-controls="([^"]+)">Why\?<\/button>/,
    );
    const controls = /aria-controls="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`<div id="${controls}" class="storage-warning__explanation" hidden="">`);
    expect(render({ unsentCount: 1, persisted: false })).toContain('This unsent notice may be lost if the phone fills up.');
  });

  it('warns while notices are unsent and the browser has not agreed to keep storage, with what to do', () => {
    const html = render({ unsentCount: 2, persisted: false, onAsk: () => undefined });
    expect(html).toContain('role="note"');
    expect(html).toContain('it may delete the 2 notices not yet sent.');
    expect(html).toContain('On an iPhone, add ParkPatrol to the Home Screen');
    expect(html).toContain('Ask the browser to keep them');
    expect(render({ unsentCount: 1, persisted: false })).toContain('it may delete the notice not yet sent.');
  });

  it('says nothing when storage is kept, when nothing is unsent, or before the browser has answered', () => {
    expect(render({ unsentCount: 3, persisted: true })).toBe('');
    expect(render({ unsentCount: 0, persisted: false })).toBe('');
    expect(render({ unsentCount: 3, persisted: null })).toBe('');
  });

  it('after a refusal, says so and stops offering to ask', () => {
    const html = render({ unsentCount: 1, persisted: false, refused: true, onAsk: () => undefined });
    expect(html).toContain('The browser said no.');
    expect(html).not.toContain('Ask the browser to keep them');
  });
});
