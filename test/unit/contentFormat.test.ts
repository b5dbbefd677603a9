/** The format detector: the web editor's (Quill) and the sanitiser's HTML against Markdown that holds a few tags. */
import assert from 'node:assert/strict';
import { detectFormat, FORMAT_EXTENSION } from '../../src/content/format';

/** What the web editor stores (editor.root.innerHTML): blocks with nothing between them. */
const QUILL = [
  '<h1>Ten Tips for Remote Teams</h1><p>Working remotely&nbsp;is hard.</p><p><br></p><ul><li>Use <strong>async</strong> updates</li><li class="ql-indent-1">nested</li></ul><p>See <a href="https://example.com/guide?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">our guide</a>.</p>',
  '<ol><li>One</li><li>Two</li><li class="ql-indent-1">Two and a half</li></ol>',
  '<p><em>a</em> <u>b</u> <s>c</s></p><pre class="ql-syntax" spellcheck="false">const x = 1 &lt; 2;\n</pre>',
  '<p><br></p>',
  '<h2>Title</h2><p>a &gt; b, and 3 &lt; 4</p><h3>Sub</h3><p>End.</p>',
  '<blockquote>A quote</blockquote><p>And text.</p>',
  // An attribute value holding ">" and a quote of the other kind.
  '<p><a href="https://example.com/" title="1 > 0 and \'so\'">link</a></p>',
];

/** What the sanitiser lets through from other sources: divs, images, spans with style, line breaks between blocks. */
const SANITISED = [
  '<div class="intro"><p style="text-align: center">Hi</p><img src="https://example.com/a.png"></div>\n<p><span style="color: rgb(230, 0, 0);">red</span> and <b>bold</b>, <i>italic</i>, <strike>old</strike></p>',
  '<h2>Title</h2>\n<p>one</p>\n\n<p>two &amp; three<br>four</p>\n',
  '  <p>Leading and trailing white space</p>  ',
  '<!-- saved by the web app --><p>A comment first</p>',
  '<P CLASS="x">Upper-case tags</P>',
  '<p>An unclosed paragraph, as a browser would still show it',
  '<img src="only.png">',
];

/** Markdown and plain text as the generator writes them, some with a few tags. */
const MARKDOWN = [
  '# Title\n\nLine one<br>\nLine two',
  'Press <kbd>Ctrl</kbd>+<kbd>C</kbd> to copy.',
  '<!-- draft -->\n# Heading\n\nText',
  '<p align="center"><img src="logo.png"></p>\n\n# Project\n\nText.',
  'Ten tips for remote teams.\n\n1. Use async updates.\n2. Meet less.',
  'Use <T> generics and <https://example.com> links, mail <me@example.com>.',
  '```html\n<p>Hello</p>\n```',
  '<strong>Bold title</strong>\n\nText after it.',
  '<details><summary>More</summary>\n\nHidden *markdown*\n</details>',
  '<div>Intro</div>\n\nSome **markdown** after',
  'a < b and c > d, 5 <= 6',
  '<br>',
  '&nbsp;<p>text</p>',
  '<p>first</p> and text after the block',
  '',
];

describe('detectFormat', () => {
  it('tells the web editor\'s HTML (Quill) as html', () => {
    for (const t of QUILL) assert.equal(detectFormat(t), 'html', t);
  });

  it('tells what the sanitiser keeps (div, img, span[style], b, i, strike, line breaks between blocks) as html', () => {
    for (const t of SANITISED) assert.equal(detectFormat(t), 'html', t);
  });

  it('tells Markdown and plain text with a few tags (br, kbd, comments, a centred logo block, autolinks) as markdown', () => {
    for (const t of MARKDOWN) assert.equal(detectFormat(t), 'markdown', JSON.stringify(t));
  });

  it('tells null and undefined (a result the generator left empty) as markdown', () => {
    assert.equal(detectFormat(null), 'markdown');
    assert.equal(detectFormat(undefined), 'markdown');
  });

  it('gives each format its extension', () => {
    assert.equal(FORMAT_EXTENSION[detectFormat(QUILL[0])], '.html');
    assert.equal(FORMAT_EXTENSION[detectFormat(MARKDOWN[0])], '.md');
  });

  it('answers in time on long and adversarial texts (no backtracking blow-up)', () => {
    const long = '<p>' + 'word '.repeat(4000) + '</p>';
    const unclosed = '<p ' + 'a="'.repeat(3000);
    const many = '<'.repeat(20_000);
    const started = Date.now();
    assert.equal(detectFormat(long), 'html');
    assert.equal(detectFormat(unclosed), 'markdown');
    assert.equal(detectFormat(many), 'markdown');
    assert.ok(Date.now() - started < 500, `took ${Date.now() - started} ms`);
  });
});
