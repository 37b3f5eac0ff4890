/** The same email rule as the API (server/src/modules/orders/service.ts). */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
