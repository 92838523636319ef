/** The server's rich-text sanitizer (before storing): the shared hostile corpus, and idempotence. */
import { sanitizeRichText } from '../../server/http/richText';
import { RICH_TEXT_CASES } from '../domain/richTextCases';

describe('sanitizeRichText', () => {
  it.each(RICH_TEXT_CASES)('$name', ({ html, gone, kept }) => {
    const out = sanitizeRichText(html);
    for (const g of gone) expect(out).not.toContain(g);
    for (const k of kept) expect(out).toContain(k);
    expect(sanitizeRichText(out)).toBe(out);
  });

  it('gives every image a text alternative: the author’s alt, or an empty one (decorative)', () => {
    expect(sanitizeRichText('<img src="/uploads/a.webp"><img src="/uploads/b.webp" alt="商品图">')).toBe(
      '<img src="/uploads/a.webp" alt="" /><img src="/uploads/b.webp" alt="商品图" />',
    );
  });
});
