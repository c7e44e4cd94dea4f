import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { PermitsPanel } from './permits-panel.tsx';

describe('PermitsPanel', () => {
  it('offers the list, adding a permit with labelled fields, the CSV import and the visitor page', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <PermitsPanel carParkId="cp1" />
      </MemoryRouter>,
    );
    for (const text of ['Permits', 'Show ended and expired permits', 'Add a permit', 'Import permits', 'Visitor page'])
      expect(html).toContain(text);
    expect(html).toMatch(/<label[^>]*>Vehicle registration/);
    expect(html).toContain('registration, kind, valid_from, valid_until, note');
    expect(html).toMatch(/<input[^>]*placeholder="dd\/mm\/yyyy"/);
    // The kinds an admin or a landowner may choose, as the product names them.
    for (const kind of ['Staff', 'Resident', 'Visitor', 'Contractor', 'Blue Badge', 'Other']) expect(html).toContain(`>${kind}</option>`);
  });
});
