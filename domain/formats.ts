/** Formats of free-text input shared by the server's checks and the client's forms. */

/**
 * Control characters no text field takes: C0 except TAB, LF and CR, DEL and C1. PostgreSQL cannot
 * store NUL at all, and the rest only ever hide or reshape what a reader sees.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** TAB, LF and CR: taken only by multi-line fields (remarks, tips). */
export const LINE_BREAKS = /[\t\n\r]/;

/**
 * An image a page shows by URL (QR codes, payment proofs): http(s), or a file under this server's
 * /uploads (no `..` segment). Never `javascript:`, `data:` or any other scheme. Empty: no image.
 */
export const IMAGE_URL_PATTERN = '^(?:https?://[^\\s"\'<>\\\\`]+|/uploads/(?!.*\\.\\.)[A-Za-z0-9._~%/-]+)?$';
export const isImageUrl = (text: string): boolean => new RegExp(IMAGE_URL_PATTERN).test(text);

/**
 * The list thumbnail of an uploaded image (the server stores `<key>_thumb.webp` beside `<key>.webp`);
 * any other URL is its own thumbnail.
 */
export const thumbOf = (url: string): string =>
  /\.webp$/.test(url) && !/_thumb\.webp$/.test(url) ? url.replace(/\.webp$/, '_thumb.webp') : url;
