/** The date the current versions of the legal texts took effect (shown on each legal page). */
export const LEGAL_TEXTS_UPDATED = new Date('2026-11-22T12:00:00Z');
