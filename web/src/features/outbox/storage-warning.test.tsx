import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { StorageWarning } from './storage-warning.tsx';

const render = (props: Parameters<typeof StorageWarning>[0]) => renderToStaticMarkup(<StorageWarning {...props} />);

describe('StorageWarning', () => {
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
