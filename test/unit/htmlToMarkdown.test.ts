/**
 * Convert to Markdown (src/content/toMarkdown.ts) on the web editor's real output (Quill's editor.root.innerHTML) and
 * on what the service's sanitiser keeps; and the preview's sanitiser (src/content/sanitize.ts).
 */
import assert from 'node:assert/strict';
import { parseHtml } from '../../src/content/html';
import { previewPage, sanitizeHtml } from '../../src/content/sanitize';
import { htmlToMarkdown } from '../../src/content/toMarkdown';

const md = (html: string) => htmlToMarkdown(html).markdown;

describe('htmlToMarkdown', () => {
  it('paragraphs, Quill\'s empty line (<p><br></p>) and &nbsp;', () => {
    assert.equal(md('<p>One&nbsp;line.</p><p><br></p><p>Two&nbsp;&nbsp;spaces.</p>'), 'One line.\n\nTwo  spaces.\n');
    assert.equal(md('<p><br></p>'), '');
    assert.equal(md(''), '');
  });

  it('entities are decoded, and what Markdown would read as markup is escaped', () => {
    assert.equal(md('<p>a &lt;b&gt; &amp; c &quot;d&quot; &#8212; &#x2019; &copy;</p>'), 'a \\<b> & c "d" — ’ ©\n');
    assert.equal(md('<p>5 * 3 = snake_case [x] `y`</p>'), '5 \\* 3 = snake\\_case \\[x\\] \\`y\\`\n');
    assert.equal(md('<p># not a heading</p><p>1. not a list</p><p>- nor this</p><p>&gt; nor a quote</p>'), '\\# not a heading\n\n1\\. not a list\n\n\\- nor this\n\n\\> nor a quote\n');
    assert.equal(md('<p>&amp;copy; stays written out</p>'), '\\&copy; stays written out\n');
  });

  it('headings h1–h3 (and a line break inside one)', () => {
    assert.equal(md('<h1>Title</h1><h2>Sub<br>title</h2><h3>Third</h3><p>Text</p>'), '# Title\n\n## Sub title\n\n### Third\n\nText\n');
  });

  it('a <br> inside a paragraph is a hard line break', () => {
    assert.equal(md('<p>line one<br>line two<br></p>'), 'line one\\\nline two\n');
  });

  it('bold, italic, strikethrough (Quill\'s <s> and the sanitiser\'s <strike>), with spaces moved outside the markers', () => {
    assert.equal(md('<p><strong>bold</strong> <b>b</b> <em>it</em> <i>i</i> <s>gone</s> <strike>old</strike></p>'), '**bold** **b** *it* *i* ~~gone~~ ~~old~~\n');
    assert.equal(md('<p>a<strong> spaced </strong>b<em></em></p>'), 'a **spaced** b\n');
    assert.equal(md('<p><strong><em>both</em></strong></p>'), '***both***\n');
  });

  it('underline and span styles keep their text and are named as losses', () => {
    const copy = htmlToMarkdown('<p><u>under</u> and <span style="color: rgb(230, 0, 0);">red</span> and <span style="background-color: yellow;">marked</span></p><p class="ql-align-center">centred</p>');
    assert.equal(copy.markdown, 'under and red and marked\n\ncentred\n');
    assert.deepEqual(copy.losses.sort(), ['highlight colours', 'text alignment', 'text colours', 'underline']);
    assert.deepEqual(htmlToMarkdown('<p><u>a</u> <u>b</u></p>').losses, ['underline (2)']);
    assert.deepEqual(htmlToMarkdown('<p><strong>nothing lost</strong></p>').losses, []);
  });

  it('links, with a title, an address that needs <…>, and an unsafe address left out', () => {
    assert.equal(
      md('<p>See <a href="https://example.com/guide?a=1&amp;b=2" rel="noopener noreferrer" target="_blank">our guide</a>.</p>'),
      'See [our guide](https://example.com/guide?a=1&b=2).\n',
    );
    assert.equal(md('<p><a href="https://example.com/" title="A &quot;t&quot;">x</a></p>'), '[x](https://example.com/ "A \\"t\\"")\n');
    assert.equal(md('<p><a href="https://example.com/a (b)">x</a></p>'), '[x](<https://example.com/a (b)>)\n');
    assert.equal(md('<p><a href="javascript:alert(1)">click</a></p>'), 'click\n');
    assert.equal(md('<p><a href="https://example.com/"></a></p>'), '<https://example.com/>\n');
  });

  it('Quill\'s flat lists nested by ql-indent-N, ordered and bulleted, numbered per level', () => {
    const quill =
      '<ol><li>One</li><li class="ql-indent-1">One.a</li><li class="ql-indent-1">One.b</li><li class="ql-indent-2">deep</li><li>Two</li></ol>' +
      '<ul><li>dot</li><li class="ql-indent-1">sub <strong>dot</strong></li></ul>';
    assert.equal(md(quill), '1. One\n    1. One.a\n    2. One.b\n        1. deep\n2. Two\n\n- dot\n    - sub **dot**\n');
  });

  it('lists nested inside items (markup from elsewhere), and a line break inside an item', () => {
    assert.equal(md('<ul><li>a<ul><li>b</li></ul></li><li>c<br>more</li></ul>'), '- a\n    - b\n- c\\\n  more\n');
  });

  it('images: a web address stays as a Markdown image; an embedded (data:) one is lost and said so', () => {
    const copy = htmlToMarkdown('<p><img src="https://example.com/a.png" alt="A chart"></p><p><img src="data:image/png;base64,iVBORw0KGgo="></p>');
    assert.equal(copy.markdown, '![A chart](https://example.com/a.png)\n');
    assert.deepEqual(copy.losses, ['images embedded in the text']);
  });

  it('Quill\'s code block and quote, the sanitiser\'s div', () => {
    assert.equal(md('<pre class="ql-syntax" spellcheck="false">const x = 1 &lt; 2;\n  return x;\n</pre>'), '```\nconst x = 1 < 2;\n  return x;\n```\n');
    assert.equal(md('<blockquote>A quote</blockquote><p>And text.</p>'), '> A quote\n\nAnd text.\n');
    assert.equal(md('<div class="intro"><p>Hi</p>loose text</div>'), 'Hi\n\nloose text\n');
  });

  it('a whole document as the web editor saves it', () => {
    const doc =
      '<h1>Ten Tips for Remote Teams</h1><p>Working remotely&nbsp;is <em>hard</em>.</p><p><br></p>' +
      '<ul><li>Use <strong>async</strong> updates</li><li class="ql-indent-1">nested</li></ul>' +
      '<p>See <a href="https://example.com/guide" rel="noopener noreferrer" target="_blank">our guide</a>.</p>';
    assert.equal(md(doc), '# Ten Tips for Remote Teams\n\nWorking remotely is *hard*.\n\n- Use **async** updates\n    - nested\n\nSee [our guide](https://example.com/guide).\n');
  });
});

describe('parseHtml', () => {
  it('reads unclosed and stray tags as a browser does', () => {
    const nodes = parseHtml('<p>one<p>two</span><ul><li>a<li>b</ul>');
    assert.deepEqual(
      nodes.map((n) => (n.kind === 'element' ? `${n.tag}:${n.children.length}` : n.text)),
      ['p:1', 'p:1', 'ul:2'],
    );
  });
});

describe('sanitizeHtml (the preview shows what the web app shows)', () => {
  it('keeps the sanitiser\'s elements and attributes', () => {
    const kept =
      '<h1 class="ql-align-center">T</h1><h2>a</h2><h3>b</h3><p class="x" style="text-align: center;">p<br></p><div class="d"><b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><strike>k</strike></div>' +
      '<ul><li>l</li></ul><ol><li>o</li></ol><p><a href="https://example.com/" title="t">a</a><span style="color: red;">r</span><img src="https://example.com/i.png" alt="i"></p>';
    assert.equal(sanitizeHtml(kept), kept);
  });

  it('drops other elements (their text stays), other attributes, scripts with their content, and unsafe addresses', () => {
    assert.equal(
      sanitizeHtml('<p onclick="x()">a<script>alert(1)</script><s>s</s></p><blockquote>q</blockquote><iframe src="https://e.x/"></iframe><style>p{}</style>'),
      '<p>as</p>q',
    );
    assert.equal(sanitizeHtml('<a href="javascript:alert(1)" target="_blank">x</a>'), '<a>x</a>');
    assert.equal(sanitizeHtml('<img src="http://example.com/a.png"><img src="https://example.com/b.png" onerror="x()">'), '<img src="https://example.com/b.png">');
    assert.equal(sanitizeHtml('<li class="ql-indent-1">x</li>'), '<li>x</li>');
    assert.equal(sanitizeHtml('a &lt;script&gt; &amp; <b title="&quot;x">b</b>'), 'a &lt;script&gt; &amp; <b>b</b>');
  });

  it('closes what the markup left open', () => {
    assert.equal(sanitizeHtml('<p><strong>open'), '<p><strong>open</strong></p>');
  });
});

describe('previewPage', () => {
  it('allows no script and loads images only from https and data: addresses', () => {
    const page = previewPage('<p>Hi<script>alert(1)</script><img src="https://example.com/a.png"></p>');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(page)?.[1] ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /img-src https: data:;/);
    assert.doesNotMatch(csp, /script-src/);
    assert.doesNotMatch(page, /<script/i);
    assert.match(page, /<p>Hi<img src="https:\/\/example.com\/a.png"><\/p>/);
  });
});
