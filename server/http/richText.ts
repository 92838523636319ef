/**
 * The server's half of the rich-text piece: HTML reduced to domain/richText.ts's allow-list before it is
 * stored (sanitize-html, a maintained parser-based sanitizer; never a regular expression over HTML).
 * Links keep only http(s)/mailto targets and open in a new tab with rel="noopener noreferrer"; images
 * keep only http(s) or /uploads sources and always carry an alt (empty when the author gave none);
 * anything else is dropped with its attribute or element.
 */
import type sanitizeHtml from 'sanitize-html';
import { isImageUrl } from '../../domain/formats';
import { isLinkUrl, RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '../../domain/richText';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT_ATTRIBUTES).map(([t, a]) => [t, [...a]])),
  // URLs are checked by the filter below; sanitize-html's scheme list is the first fence.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Script, style and the like go with their content; other unknown tags leave their text.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math'],
  disallowedTagsMode: 'discard',
  transformTags: {
    // Every image has a text alternative: alt="" (decorative) where the author gave none (WCAG 1.1.1).
    img: (tagName, attribs): sanitizeHtml.Tag => ({ tagName, attribs: { ...attribs, alt: attribs.alt ?? '' } }),
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = attribs.href ?? '';
      const kept: sanitizeHtml.Attributes = isLinkUrl(href)
        ? { href, target: '_blank', rel: 'noopener noreferrer' }
        : {};
      return { tagName, attribs: kept };
    },
  },
  // An image whose source was dropped (or never allowed) goes whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !(frame.attribs.src && isImageUrl(frame.attribs.src)),
};

/**
 * sanitize-html (~11 MB resident with its parser) on the first rich text saved, not at start: a
 * memoised require, so that the sanitizer stays synchronous for its callers.
 */
let sanitizer: typeof sanitizeHtml | undefined;
const loadSanitizer = (): typeof sanitizeHtml => (sanitizer ??= require('sanitize-html') as typeof sanitizeHtml);

/** `html` reduced to the allow-list. */
export function sanitizeRichText(html: string): string {
  return loadSanitizer()(html, OPTIONS).trim();
}
