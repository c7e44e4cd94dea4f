import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { BulkResult, Pcn } from '@parkpatrol/shared';
import { AppealLine } from './appeal-summary.tsx';
import { BulkStatusUndo } from './bulk-status-change.tsx';

const done = (id: string): BulkResult => ({ id, label: `PCN-0000000${id}`, success: true });
const refused: BulkResult = { id: '9', label: 'PCN-00000009', success: false, error: 'That status change is not allowed' };
const undo = (status: Pcn['status'], results: BulkResult[]) =>
  renderToStaticMarkup(<BulkStatusUndo status={status} results={results} onUndone={() => undefined} />);

describe("a bulk change's Undo", () => {
  it('offers to move back the PCNs it changed, saying what it does, before it is pressed', () => {
    const html = undo('APPROVED', [done('1'), done('2'), refused]);
    expect(html).toContain('>Undo status change</button>');
    expect(html).toContain('Moves the 2 PCNs changed back to the status each had; any changed since are left as they are.');
    const hint = /<p id="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain(`aria-describedby="${hint}"`);
  });

  it('has no button after a change to a final status, and says why instead', () => {
    const html = undo('REJECTED', [done('1'), done('2')]);
    expect(html).not.toContain('<button');
    expect(html).toContain('No undo: Rejected is a final status, so these 2 PCNs cannot be moved back.');
    expect(undo('CANCELLED', [done('1')])).toContain('No undo: Cancelled is a final status, so this PCN cannot be moved back.');
  });

  it('is not there when nothing was changed', () => {
    expect(undo('APPROVED', [refused])).toBe('');
  });
});

describe("the review's appeal line", () => {
  const appeal = {
    id: 'a1',
    reference: 'APL-00000042',
    status: 'OPEN' as const,
    respondBy: '2026-03-04',
    receivedAt: '2026-02-04T12:00:00.000Z',
    decidedAt: null,
  };
  const line = (pcnAppeal: Pcn['appeal']) => renderToStaticMarkup(<AppealLine pcn={{ id: 'n1', appeal: pcnAppeal } as Pcn} />);

  it('says the notice has an appeal, when it came and by when to answer, and links to it', () => {
    const html = line(appeal);
    expect(html).toContain('>Open<');
    expect(html).toMatch(/Appeal APL-00000042, received [^;<]+2026[^;<]*; respond by 4 Mar 2026/);
    expect(html).toMatch(/<a [^>]*href="\/admin\/appeals\/a1"[^>]*>Open appeal APL-00000042<\/a>/);
  });

  it('gives the outcome and when it was decided once decided, and is not there without an appeal', () => {
    const html = line({ ...appeal, status: 'REJECTED', decidedAt: '2026-02-20T09:30:00.000Z' });
    expect(html).toContain('>Rejected<');
    expect(html).toMatch(/; decided [^<]*2026/);
    expect(html).not.toContain('respond by');
    expect(line(null)).toBe('');
    expect(line(undefined)).toBe('');
  });
});
