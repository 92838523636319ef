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
});
