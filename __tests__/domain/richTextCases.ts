/**
 * Hostile and ordinary HTML for the rich-text piece, shared by the server's sanitizer test and the
 * console's: each case names what must not survive (`gone`) and what must (`kept`).
 */
export interface RichTextCase {
  name: string;
  html: string;
  gone: string[];
  kept: string[];
}

export const RICH_TEXT_CASES: RichTextCase[] = [
  {
    name: 'script element',
    html: '<p>hi</p><script>alert(1)</script>',
    gone: ['<script', 'alert'],
    kept: ['<p>hi</p>'],
  },
  {
    name: 'event handler',
    html: '<img src="/uploads/a.webp" onerror="alert(1)">',
    gone: ['onerror', 'alert'],
    kept: ['/uploads/a.webp'],
  },
  { name: 'javascript: link', html: '<a href="javascript:alert(1)">x</a>', gone: ['javascript:'], kept: ['>x</a>'] },
  { name: 'data: image', html: '<img src="data:image/svg+xml;base64,PHN2Zz4=">', gone: ['data:', '<img'], kept: [] },
  {
    name: 'inline style',
    html: '<p style="background:url(javascript:alert(1))">t</p>',
    gone: ['style', 'javascript'],
    kept: ['<p>t</p>'],
  },
  {
    name: 'iframe',
    html: '<iframe src="https://evil.example"></iframe><p>ok</p>',
    gone: ['iframe', 'evil'],
    kept: ['<p>ok</p>'],
  },
  { name: 'svg with script', html: '<svg><script>alert(1)</script></svg>', gone: ['svg', 'alert'], kept: [] },
  {
    name: 'form',
    html: '<form action="https://evil.example"><input name="p"></form>',
    gone: ['form', 'input'],
    kept: [],
  },
  { name: 'protocol-relative image', html: '<img src="//evil.example/x.png">', gone: ['evil'], kept: [] },
  {
    name: 'formatting, lists, tables, links and images kept',
    html: '<h2>标题</h2><p><strong>粗</strong><em>斜</em><u>下</u></p><ul><li>一</li></ul><table><tbody><tr><td colspan="2">格</td></tr></tbody></table><a href="https://example.com/a">链接</a><img src="/uploads/img/a.webp" alt="图">',
    gone: [],
    kept: [
      '<h2>标题</h2>',
      '<strong>粗</strong>',
      '<em>斜</em>',
      '<li>一</li>',
      'colspan="2"',
      'href="https://example.com/a"',
      'rel="noopener noreferrer"',
      'src="/uploads/img/a.webp"',
      'alt="图"',
    ],
  },
];
