import { describe, expect, it } from 'vitest';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { PageHeading } from './page-heading.tsx';
import { wholeReferences } from './whole-references.tsx';

const html = (node: ReactNode) => renderToStaticMarkup(<>{wholeReferences(node)}</>);

describe('wholeReferences', () => {
  it('keeps each charge, appeal and ticket reference in a sentence on one line, the words unchanged', () => {
    expect(html('Appeal APL-00000003 against PCN-00000003 (ticket D-1A2B3C4D).')).toBe(
      'Appeal <span class="reference">APL-00000003</span> against <span class="reference">PCN-00000003</span> (ticket <span class="reference">D-1A2B3C4D</span>).',
    );
  });

  it('leaves other text and elements as they are', () => {
    expect(html('No reference here: pre-paid, D-DAY')).toBe('No reference here: pre-paid, D-DAY');
    expect(html(<b>PCN-00000003</b>)).toBe('<b>PCN-00000003</b>');
  });

  it('is applied by the page heading, whatever its children', () => {
    expect(renderToStaticMarkup(<PageHeading>Appeal {'APL-00000042'}</PageHeading>)).toContain(
      'Appeal <span class="reference">APL-00000042</span></h1>',
    );
  });
});
