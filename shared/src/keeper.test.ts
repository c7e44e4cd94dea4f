import { describe, expect, it } from 'vitest';
import {
  KEEPER_REPLY_COLUMNS,
  KEEPER_REPLY_DATE_FORMAT,
  keeperReplyEventDay,
  keeperReplyTemplateCsv,
  keeperReplyTemplateLines,
} from './keeper.ts';

describe('the keeper reply template', () => {
  it('is the import’s columns in order and one example row with a value or blank for each', () => {
    const [header, example] = keeperReplyTemplateLines();
    expect(header.split(',')).toEqual([...KEEPER_REPLY_COLUMNS]);
    const cells = example.split(',');
    expect(cells).toHaveLength(KEEPER_REPLY_COLUMNS.length);
    const value = (column: (typeof KEEPER_REPLY_COLUMNS)[number]) => cells[KEEPER_REPLY_COLUMNS.indexOf(column)];
    expect(value('reference')).toBe('PCN-10000001');
    expect(value('registration')).toBe('AB12CDE');
    expect(value('keeper_type')).toBe('');
    expect(keeperReplyTemplateCsv()).toBe(`${header}\r\n${example}\r\n`);
  });

  it('writes its example date in the order the screen says it reads', () => {
    const [, example] = keeperReplyTemplateLines();
    const eventDate = example.split(',')[KEEPER_REPLY_COLUMNS.indexOf('event_date')]!;
    expect(eventDate).toBe('27/11/2026');
    expect(KEEPER_REPLY_DATE_FORMAT).toContain(`DD/MM/YYYY, the DVLA’s order (${eventDate})`);
    expect(KEEPER_REPLY_DATE_FORMAT).toContain(`YYYY-MM-DD (${keeperReplyEventDay(eventDate)})`);
  });
});

describe('a reply’s event date', () => {
  it.each([
    ['27/11/2026', '2026-11-27', 'the DVLA’s order'],
    ['1/2/2026', '2026-02-01', 'without leading zeros: 1 February, never 2 January'],
    ['2026-11-27', '2026-11-27', 'already a calendar day'],
    ['11/27/2026', '2026-27-11', 'the American order is no day, so it matches no notice'],
    ['27 Nov 2026', '27 Nov 2026', 'words are kept as written, to be named as not the notice’s day'],
  ])('%s reads as %s (%s)', (text, day) => {
    expect(keeperReplyEventDay(text)).toBe(day);
  });
});
