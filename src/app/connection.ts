/**
 * Whether the visitor's connection may spend data on pages they have not asked for (docs/decisions/0012:
 * links prefetch their target when seen or hovered, except on 2g connections or in data-saver
 * mode). Asked at every prefetch, since a phone's connection changes during a visit.
 */
export type ConnectionInfo = { effectiveType?: string; saveData?: boolean };

const SLOW = new Set(['slow-2g', '2g']);

export function prefetchAllowed(connection: ConnectionInfo | undefined): boolean {
  if (!connection) return true;
  if (connection.saveData === true) return false;
  return !SLOW.has(connection.effectiveType ?? '');
}

/** The browser's connection, where it tells (Chromium; Firefox and Safari have no `navigator.connection`). */
export function currentConnection(): ConnectionInfo | undefined {
  if (typeof navigator === 'undefined') return undefined;
  return (navigator as Navigator & { connection?: ConnectionInfo }).connection;
}
