import { create } from 'qrcode';

/** A QR code drawn as one SVG path (crisp on any printer, no image to load), for a phone's camera. */
export function QrCode({ text, label, sizeMm }: { text: string; label: string; sizeMm: number }) {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const quiet = 2;
  const size = modules.size + 2 * quiet;
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let column = 0; column < modules.size; column++) {
      if (modules.get(row, column)) path += `M${column + quiet} ${row + quiet}h1v1h-1z`;
    }
  }
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      style={{ width: `${sizeMm}mm`, height: `${sizeMm}mm` }}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
