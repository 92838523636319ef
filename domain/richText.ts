/**
 * Rich text (product details, notices, the two texts): the one allow-list of what stored HTML may hold.
 * The server sanitizes with it before storing (sanitize-html, server/http/richText.ts) and the console
 * sanitizes again with it when it shows stored HTML (DOMPurify, src/components/RichTextView.tsx).
 * No style, no script, no event handler, no frame, no form; links http(s) or mailto; images http(s) or
 * this server's /uploads (domain/formats.ts isImageUrl).
 */
export const RICH_TEXT_TAGS = [
  'p',
  'br',
  'h1',
  'h2',
  'h3',
  'h4',
  'strong',
  'b',
  'em',
  'i',
  'u',
  's',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'code',
  'pre',
  'hr',
] as const;

/** The attributes each tag may keep. */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height'],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  ol: ['start'],
};

/** The longest stored rich text, in characters (after sanitizing). */
export const RICH_TEXT_MAX = 100_000;

export const isLinkUrl = (href: string): boolean => /^(?:https?:\/\/[^\s"'<>`]+|mailto:[^\s"'<>`]+)$/i.test(href);
