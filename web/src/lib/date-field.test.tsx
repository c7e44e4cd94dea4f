import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { DateField, dateRangeProblem } from './date-field.tsx';

describe('the date field', () => {
  it('shows an ISO date as dd/mm/yyyy in a text input, whatever the browser would do with a date input', () => {
    const html = renderToStaticMarkup(<DateField label="Posting day" name="postOn" value="2026-12-31" />);
    expect(html).toMatch(/<label[^>]*>Posting day<\/label>/);
    expect(html).toContain('value="31/12/2026"');
    expect(html).toContain('placeholder="dd/mm/yyyy"');
    expect(html).toContain('inputMode="numeric"');
    expect(html).toContain('type="text"');
    expect(html).not.toContain('type="date"');
  });

  it('shows a UK wall-clock reading as dd/mm/yyyy hh:mm with its time', () => {
    const html = renderToStaticMarkup(<DateField withTime label="Served at" value="2026-07-14T07:49" />);
    expect(html).toContain('value="14/07/2026 07:49"');
    expect(html).toContain('placeholder="dd/mm/yyyy hh:mm"');
  });

  it('is empty for no date, with the message its owner gives', () => {
    const html = renderToStaticMarkup(<DateField label="Paid on" value="" errorMessage="Give the day it was paid" />);
    expect(html).toContain('value=""');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('Give the day it was paid');
  });

  it('names a day outside the days it takes beside the field, and holds the form back as for a text that is not a date', () => {
    const early = renderToStaticMarkup(<DateField label="Paid on" value="2026-01-31" min="2026-02-01" max="2026-11-29" />);
    expect(early).toContain('Enter a date on or after 01/02/2026');
    expect(early).toContain('data-not-a-date="true"');
    const late = renderToStaticMarkup(<DateField label="Paid on" value="2026-11-30" min="2026-02-01" max="2026-11-29" />);
    expect(late).toContain('Enter a date on or before 29/11/2026');
    const within = renderToStaticMarkup(<DateField label="Paid on" value="2026-11-29" min="2026-02-01" max="2026-11-29" />);
    expect(within).not.toContain('data-not-a-date');
  });

  it('checks a range by the day, inclusive at both ends, and without bounds takes any day', () => {
    expect(dateRangeProblem('2026-02-01', '2026-02-01', '2026-02-01')).toBeNull();
    expect(dateRangeProblem('2026-02-01T23:59', '2026-02-01', '2026-02-01')).toBeNull();
    expect(dateRangeProblem('2026-02-02', undefined, '2026-02-01')).toBe('Enter a date on or before 01/02/2026');
    expect(dateRangeProblem('1999-01-01')).toBeNull();
  });
});
