/**
 * Stored rich text shown as a member sees it, sanitized again in the browser with the same allow-list
 * the server stored it with (domain/richText.ts): a row written before a rule changed, or by anything
 * other than this server, still cannot run script in the console.
 */
import DOMPurify from 'dompurify';
import Box from '@mui/material/Box';
import { isImageUrl } from '../../domain/formats';
import { isLinkUrl, RICH_TEXT_ATTRIBUTES, RICH_TEXT_TAGS } from '../../domain/richText';

const ATTRS = [...new Set(Object.values(RICH_TEXT_ATTRIBUTES).flat())];

/** `html` reduced to the allow-list in the browser. */
export function cleanRichText(html: string): string {
  const purify = DOMPurify();
  purify.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (el.tagName === 'A') {
      const href = el.getAttribute('href') ?? '';
      if (!isLinkUrl(href)) el.removeAttribute('href');
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    }
    const src = el.getAttribute('src');
    if (el.tagName === 'IMG' && !(src && isImageUrl(src))) el.remove();
  });
  return purify.sanitize(html, { ALLOWED_TAGS: [...RICH_TEXT_TAGS], ALLOWED_ATTR: ATTRS, ADD_ATTR: ['target'] });
}

export default function RichTextView({ html }: { html: string }) {
  return (
    <Box
      className="rich-text"
      sx={{
        '& img': { maxWidth: '100%' },
        '& table': { borderCollapse: 'collapse' },
        '& td, & th': { border: 1, borderColor: 'divider', p: 0.5 },
      }}
      dangerouslySetInnerHTML={{ __html: cleanRichText(html) }}
    />
  );
}
