import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PcnImage } from '@parkpatrol/shared';
import { CaptureFactsList } from './capture-facts-list.tsx';

const SHA = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
const image = (overrides: Partial<PcnImage>): PcnImage => ({
  id: 'img-1',
  fileName: 'x.jpg',
  url: '/api/uploads/x.jpg?sig=1',
  mimeType: 'image/jpeg',
  size: 1000,
  sha256: SHA,
  takenAt: '2025-03-14T09:26:53Z',
  createdAt: '2025-03-14T09:30:00Z',
  ...overrides,
});

describe('CaptureFactsList', () => {
  it('shows per photo the time and its source, the position as text and the short checksum with its check', () => {
    const html = renderToStaticMarkup(
      <CaptureFactsList
        offenceType="PARKING_IN_DISABLED_BAY"
        format={{ locale: 'en-GB', timeZone: 'Europe/London' }}
        images={[
          image({
            takenAtSource: 'camera',
            latitude: 51.501364,
            longitude: -0.14189,
            accuracyM: 8,
            clientSha256: SHA,
            shots: ['number-plate', 'bay-markings'],
          }),
          image({ id: 'img-2', takenAtSource: 'added', clientSha256: null }),
        ]}
      />,
    );
    expect(html).toContain('Photo 1');
    expect(html).toContain('Taken by the camera at 14 Mar 2025, 09:26');
    expect(html).toContain('51.501364, -0.141890 (accurate to 8 m)');
    expect(html).toContain('Number plate, Bay markings');
    expect(html).toContain('a1b2c3d4…6d7e8f90');
    expect(html).toContain('verified by the server');
    expect(html).toContain('Added at 14 Mar 2025, 09:26');
    expect(html).toContain('Position not recorded');
    expect(html).toContain('not checked: the device sent no checksum');
  });

  it('loads nothing from anywhere: no image, map, frame or link', () => {
    const html = renderToStaticMarkup(<CaptureFactsList images={[image({ latitude: 51.5, longitude: -0.1, accuracyM: 5 })]} />);
    expect(html).not.toMatch(/<(img|iframe|a|script|link)\b/);
    // The icons' SVG namespace is the only URL, and it is never fetched.
    expect(html).not.toMatch(/\s(src|href|srcset|data)=/);
  });

  it('renders nothing without photos', () => {
    expect(renderToStaticMarkup(<CaptureFactsList images={[]} />)).toBe('');
  });
});
