import QRCode from 'qrcode';
import * as React from 'react';

/**
 * A QR code drawn as SVG from the qrcode package's module matrix: no canvas, no data URL, no
 * inline script, crisp at any size. EPC069-12 (GiroCode) asks for error correction level M.
 * The label says what it encodes, for screen readers.
 */
export const QUIET_ZONE = 4;

/** The SVG path of the dark modules (one 1×1 square each), offset by the quiet zone. */
export function qrPath(text: string): { size: number; d: string } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  let d = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) d += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, d };
}

export function QrCode({
  text,
  label,
  size = 200,
  className,
}: {
  text: string;
  label: string;
  size?: number;
  className?: string;
}) {
  const { size: modules, d } = React.useMemo(() => qrPath(text), [text]);
  return (
    <svg
      className={className ? `qr-code ${className}` : 'qr-code'}
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${modules} ${modules}`}
      shapeRendering="crispEdges"
      data-qr-text={text}
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
