import { describe, expect, it } from 'vitest';
import { wrapText } from './pdf-layout.ts';

/** A monospace stand-in for a font: every character 5 units wide; counts how often it is asked. */
function measuringFont() {
  const calls = { count: 0 };
  return { calls, widthOf: (text: string) => (calls.count++, text.length * 5) };
}

describe('wrapText', () => {
  it('breaks between words, and cuts a word longer than a line by characters', () => {
    const { widthOf } = measuringFont();
    expect(wrapText('aaaa bbbb cc', 50, widthOf)).toEqual(['aaaa bbbb', 'cc']);
    expect(wrapText('abcdefghijklmnopqrstuvwxy', 50, widthOf)).toEqual(['abcdefghij', 'klmnopqrst', 'uvwxy']);
    expect(wrapText('short\n\nnext', 50, widthOf)).toEqual(['short', '', 'next']);
  });

  it('measures each distinct character once, so a 2,000-letter word costs what its letters do (it used to freeze the API)', () => {
    const { calls, widthOf } = measuringFont();
    const word = 'W'.repeat(2000);
    const lines = wrapText(`${word} ${word}`, 400, widthOf);
    expect(lines.join('')).toBe(word + word);
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    // 'W' and the space: two measurements, whatever the length.
    expect(calls.count).toBe(2);
  });
});
