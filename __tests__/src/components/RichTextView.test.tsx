/** The console's second sanitizing of stored rich text: the shared hostile corpus, rendered. */
import { render } from '@testing-library/react';
import RichTextView, { cleanRichText } from '../../../src/components/RichTextView';
import { RICH_TEXT_CASES } from '../../domain/richTextCases';

describe('cleanRichText', () => {
  it.each(RICH_TEXT_CASES)('$name', ({ html, gone, kept }) => {
    const out = cleanRichText(html);
    for (const g of gone) expect(out).not.toContain(g);
    for (const k of kept) expect(out).toContain(k);
  });

  it('renders the cleaned HTML, links opening in a new tab', () => {
    const { container } = render(
      <RichTextView html={'<p>a<a href="https://x.example">b</a></p><script>window.bad=1</script>'} />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('a')?.getAttribute('target')).toBe('_blank');
    expect(container.textContent).toBe('ab');
  });
});
