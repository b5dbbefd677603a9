/**
 * The writing actions' prompt, structure round trip and document names (src/write/prompt.ts), in plain Node; and
 * their text at its edges: code and indentation through the server's flattening, the 2,048 limit with emoji and the
 * characters the server trims, blank-looking selections, and names at the 128 limit.
 * The server's flattening and trim are the sandbox's (test/sandbox/server.ts flattenPrompt and laravelTrim, written
 * from CONTRACT.md).
 */
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/api/validate';
import { TEMPLATES } from '../../src/api/templates';
import { WRITE_ACTIONS, WRITE_ACTION_IDS } from '../../src/write/actions';
import { useVscodeL10n } from '../../src/util/l10n';
import {
  checkPrompt,
  composePrompt,
  composeRequest,
  decodeAnswer,
  documentName,
  documentPrompt,
  documentPromptLength,
  encodeText,
  findLanguage,
  formatOf,
  textAsHtml,
  LANGUAGES,
  promptLength,
  replacementFor,
  TONES,
} from '../../src/write/prompt';
import { flattenPrompt, laravelTrim } from '../sandbox/server';

const POST = `# Launch notes

We ship the new editor on Monday.
It replaces the old one.

## What changes

- Faster saves
- A <b>new</b> toolbar & shortcuts
- Offline drafts

1. Update the app
2. Restart it

> Quoted line`;

describe('write: prompt composition and the structure round trip', () => {
  it('offers 35 languages and 10 tones; the account language is found by code or name', () => {
    assert.equal(LANGUAGES.length, 35);
    assert.equal(new Set(LANGUAGES.map((l) => l.code)).size, 35);
    assert.equal(TONES.length, 10);
    assert.equal(findLanguage('en')?.name, 'English');
    assert.equal(findLanguage('EN_us')?.name, 'English');
    assert.equal(findLanguage('pt-BR')?.name, 'Portuguese');
    assert.equal(findLanguage('zh-TW')?.name, 'Chinese (Traditional)');
    assert.equal(findLanguage('zh')?.name, 'Chinese (Simplified)');
    assert.equal(findLanguage('nb')?.name, 'Norwegian');
    assert.equal(findLanguage('german')?.name, 'German');
    assert.equal(findLanguage('xx'), undefined);
    assert.equal(findLanguage(''), undefined);
    assert.equal(findLanguage(3), undefined);
  });

  it('each one-step action has its own words: what failed, its button, its title and its label, read in the display language when asked', () => {
    const words = Object.fromEntries(WRITE_ACTION_IDS.map((id) => [id, [WRITE_ACTIONS[id].failed, WRITE_ACTIONS[id].button, WRITE_ACTIONS[id].title, WRITE_ACTIONS[id].label]]));
    assert.deepEqual(words, {
      rewrite: ["Couldn't rewrite the text", 'Rewrite', 'Rewrite Selection', 'Rewrite'],
      summarize: ["Couldn't summarize the text", 'Summarize', 'Summarize Selection', 'Summary'],
      grammar: ["Couldn't fix the grammar", 'Fix Grammar', 'Fix Grammar', 'Grammar'],
      headlines: ["Couldn't suggest headlines", 'Suggest Headlines', 'Suggest Headlines', 'Headlines'],
      meta: ["Couldn't write a meta description", 'Write Meta Description', 'Write Meta Description', 'Meta description'],
    });
    useVscodeL10n({ t: (message) => `«${message}»`, language: 'de' });
    try {
      assert.equal(WRITE_ACTIONS.rewrite.failed, "«Couldn't rewrite the text»", 'the translation of the moment, not one taken when the table was made');
    } finally {
      useVscodeL10n(undefined);
    }
  });

  it('the one-step actions use the templates the issue names', () => {
    const byId = Object.fromEntries(WRITE_ACTION_IDS.map((id) => [id, TEMPLATES[WRITE_ACTIONS[id].templateId - 1].name]));
    assert.deepEqual(byId, {
      rewrite: 'Content rewrite',
      summarize: 'Content summary',
      grammar: 'Content grammar',
      headlines: 'Headline',
      meta: 'Meta description',
    });
  });

  it('a single plain paragraph goes as it is; structure goes as minimal HTML, escaped', () => {
    assert.deepEqual(encodeText('  One   plain\tparagraph.  ', 'markdown'), { text: 'One plain paragraph.', structured: false });
    const e = encodeText(POST, 'markdown');
    assert.equal(e.structured, true);
    assert.equal(
      e.text,
      '<h1>Launch notes</h1><p>We ship the new editor on Monday.<br>It replaces the old one.</p><h2>What changes</h2>' +
        '<ul><li>Faster saves</li><li>A &lt;b&gt;new&lt;/b&gt; toolbar &amp; shortcuts</li><li>Offline drafts</li></ul>' +
        '<ol><li>Update the app</li><li>Restart it</li></ol><blockquote>Quoted line</blockquote>',
    );
    // No newline survives: the server's flattening changes nothing.
    assert.equal(flattenPrompt(e.text), e.text);
    // Plain text: "#" is not a heading there, but paragraphs and line breaks still count.
    assert.equal(encodeText('# not a heading\n\nsecond', 'plaintext' as never).text, '<p># not a heading</p><p>second</p>');
  });

  it('the prompt names the task, the language and the tone, asks for the same markup, then the text', () => {
    const prompt = composePrompt({
      task: WRITE_ACTIONS.rewrite.task,
      language: findLanguage('de'),
      tone: 'Friendly',
      text: POST,
      format: 'markdown',
      keepStructure: true,
    });
    assert.ok(prompt.startsWith('Rewrite the text below'), prompt);
    assert.match(prompt, /Write the answer in German, in a friendly tone\./);
    assert.match(prompt, /answer in HTML too, using only the tags h1 to h6, p, ul, ol, li, blockquote, pre and br, keeping its headings/);
    assert.ok(prompt.endsWith(`Text: ${encodeText(POST, 'markdown').text}`));
    assert.equal(flattenPrompt(prompt), prompt, 'one line: what is counted is what the server counts');
    const grammar = composePrompt({ task: WRITE_ACTIONS.grammar.task, text: 'teh cat', format: 'markdown', keepStructure: true });
    assert.doesNotMatch(grammar, /Write the answer in/);
    assert.match(grammar, /Answer with the text only\. Text: teh cat$/);
    const extra = composePrompt({ task: 'Write a blog post based on the text below.', extra: '  for  beginners ', text: 'x', format: 'plain', keepStructure: true });
    assert.match(extra, /^Write a blog post based on the text below\. for beginners /);
  });

  it('refuses an empty text, and a prompt over 2,048 characters counted as code points after the server trim', () => {
    assert.deepEqual(checkPrompt(' \n\u200b ', 'Task. Text: '), { kind: 'empty' });
    const emoji = '😀'.repeat(LIMITS.prompt); // 2,048 code points, 4,096 UTF-16 units
    assert.equal(promptLength(`  ${emoji}\u200b `), LIMITS.prompt);
    assert.equal(checkPrompt('x', emoji), undefined);
    const over = checkPrompt('some text', `${emoji}!`);
    assert.deepEqual(over, { kind: 'tooLong', length: LIMITS.prompt + 1, limit: LIMITS.prompt, textLength: 9 });
  });

  it('an HTML answer comes back as Markdown paragraphs, headings and lists with real line breaks', () => {
    const answer =
      'Here you go: <h1>Launch notes</h1><p>We ship on <strong>Monday</strong>.<br>It replaces the old one.</p> <h2>What changes</h2>' +
      '<ul><li>Faster saves</li><li>A &lt;b&gt;new&lt;/b&gt; toolbar &amp; shortcuts</li></ul><ol><li>Update</li><li>Restart</li></ol>' +
      '<blockquote>Quoted</blockquote><pre>a  b<br>c</pre>';
    assert.equal(
      decodeAnswer(answer, 'markdown'),
      [
        'Here you go:',
        '',
        '# Launch notes',
        '',
        'We ship on **Monday**.',
        'It replaces the old one.',
        '',
        '## What changes',
        '',
        '- Faster saves',
        '- A <b>new</b> toolbar & shortcuts',
        '',
        '1. Update',
        '2. Restart',
        '',
        '> Quoted',
        '',
        '```',
        'a  b',
        'c',
        '```',
      ].join('\n'),
    );
    assert.equal(decodeAnswer('<h2>Title</h2><p>One</p><ul><li>a</li></ul>', 'plain'), 'Title\n\nOne\n\n- a');
    // No block markup: the model's text as it is (trimmed), newlines kept.
    assert.equal(decodeAnswer('  Line one\n\nLine <two> & more \n', 'markdown'), 'Line one\n\nLine <two> & more');
    // An HTML editor gets the HTML.
    assert.equal(decodeAnswer(' <p>x</p> ', 'html'), '<p>x</p>');
  });

  it('the round trip through the server keeps a Markdown post\'s structure', () => {
    // A model that answers in the markup it was asked for, e.g. by echoing the text part of the prompt.
    const prompt = flattenPrompt(composePrompt({ task: 'Rewrite.', text: POST, format: 'markdown', keepStructure: true }));
    const modelAnswer = prompt.slice(prompt.indexOf('Text: ') + 'Text: '.length);
    assert.equal(
      decodeAnswer(modelAnswer, 'markdown'),
      POST,
    );
  });

  it('keeps the selection\'s surrounding white space; headlines go below the text', () => {
    assert.equal(replacementFor('\n  old text\n\n', 'new', 'replace'), '\n  new\n\n');
    assert.equal(replacementFor('Body text\n', '- A\n- B', 'below'), 'Body text\n\n- A\n- B\n');
  });

  it('names the document after the action, the file and the line, within 128 characters', () => {
    assert.equal(documentName('Rewrite', 'post.md', 12), 'Rewrite · post.md:12');
    assert.equal(documentName('Summary', 'Untitled-1'), 'Summary · Untitled-1');
    const long = documentName('Rewrite', `${'a'.repeat(200)}.md`, 3);
    assert.equal([...long].length, LIMITS.name);
    assert.match(long, /^Rewrite · a+…:3$/);
    const hugeLabel = documentName('L'.repeat(300), 'x.md', 1);
    assert.equal([...hugeLabel].length, LIMITS.name);
    assert.ok(hugeLabel.endsWith('…'));
  });

  it('an answer\'s character references are decoded as the HTML reader decodes them, &nbsp; as a plain space', () => {
    assert.equal(decodeAnswer('<p>A&nbsp;b &mdash; c &amp;nbsp; &#x1F600; &#39;q&#39; &unknown;</p>', 'plain'), "A b \u2014 c &nbsp; \u{1F600} 'q' &unknown;");
  });
});

const codePoints = (s: string) => [...s].length;

/** What the model gets when the text is sent, answered back unchanged (a model that keeps the form it was asked for). */
function roundTrip(text: string, languageId: string): string {
  const format = formatOf(languageId);
  return decodeAnswer(flattenPrompt(encodeText(text, format).text), format, text);
}

describe('write: code, limits and names at their edges', () => {
  it('indented code in a Markdown fence keeps its indentation through the flattening', () => {
    const body = ['def total(items):', '    s = 0', '    for i in items:', '\tif i:', '            s += i  # two  spaces', '    return s'].join('\n');
    const md = `Some text.\n\n\`\`\`python\n${body}\n\`\`\``;
    const back = roundTrip(md, 'markdown');
    assert.strictEqual(back, md, 'the code and its fence come back as they were');
  });

  it('a multi-line selection in a code file comes back with its lines, indentation and list-like lines as they were', () => {
    for (const [languageId, src] of [
      ['python', 'def f(x):\n    if x:\n        return 1\n\n    return 2'],
      ['typescript', '/**\n * A comment.\n * - not a list\n * 1. nor this\n */\nfunction f() {\n  return \'<div>\' + 2;\n}'],
      ['yaml', 'items:\n  - one\n  - two\nname: x'],
    ] as const) {
      assert.strictEqual(roundTrip(src, languageId), src, languageId);
    }
  });

  it("a one-line selection with markup in it: the model's answer is taken as it is, not decoded as our HTML", () => {
    // A code or Markdown line the user wrote with tags in it, answered back unchanged by the model.
    for (const [languageId, line] of [
      ['typescript', 'const el = \'<div class="card"><p>Hi</p></div>\';'],
      ['markdown', 'Press <kbd>Ctrl</kbd>+<kbd>S</kbd> to save.<br>Then close it.'],
      ['plaintext', 'Use <p> for paragraphs and <br> for breaks.'],
    ] as const) {
      const sent = encodeText(line, formatOf(languageId));
      assert.equal(sent.structured, false, `${languageId}: one line goes as it is`);
      assert.strictEqual(decodeAnswer(flattenPrompt(sent.text), formatOf(languageId), line), line, languageId);
    }
  });

  it('the 2,048 limit at its edge: emoji count as one, trailing U+200B/U+FEFF are trimmed as the server does', () => {
    const task = 'Rewrite.';
    const build = (text: string) => composePrompt({ task, text, format: 'plain', keepStructure: true });
    const overhead = promptLength(build('x')) - 1;
    const at = (n: number) => '😀'.repeat(n);
    const exact = build(at(LIMITS.prompt - overhead));
    assert.equal(codePoints(laravelTrim(exact)), 2048);
    assert.equal(checkPrompt(at(LIMITS.prompt - overhead), exact), undefined, 'exactly 2,048 is accepted');
    const over = build(at(LIMITS.prompt - overhead + 1));
    assert.deepEqual(checkPrompt(at(LIMITS.prompt - overhead + 1), over)?.kind, 'tooLong');
    // What the server trims does not count.
    const padded = `${at(LIMITS.prompt - overhead)}\u200B\uFEFF\u200B`;
    const p = build(padded);
    assert.equal(promptLength(p), codePoints(laravelTrim(p)));
    assert.equal(checkPrompt(padded, p), undefined);
  });

  it('a selection of only zero-width spaces and BOMs is blank: nothing to send', () => {
    const text = '\u200B\uFEFF\u200B \u200B';
    assert.deepEqual(checkPrompt(text, composePrompt({ task: 'Rewrite.', text, format: 'plain', keepStructure: true })), { kind: 'empty' });
  });

  it('names stay within 128 code points as the server counts them (after its trim), with emoji and long file names', () => {
    for (const [label, file, line] of [
      ['Rewrite', `${'😀'.repeat(200)}.md`, 12345],
      ['Meta description', `${'a'.repeat(300)}.md`, 1],
      ['😀'.repeat(130), 'post.md', 3],
      ['Rewrite', '\u200Bpost\u200B.md', undefined],
    ] as const) {
      const name = documentName(label, file, line);
      assert.ok(codePoints(laravelTrim(name)) <= 128, `${codePoints(name)}: ${name}`);
      assert.ok(laravelTrim(name).length > 0);
      assert.ok(!/[\uD800-\uDBFF]$/.test(name) && !/^[\uDC00-\uDFFF]/.test(name), 'no half of a surrogate pair');
    }
  });
});

describe('write: a request with no text to work on (@content /write at the cursor)', () => {
  const german = findLanguage('de')!;

  it('is the request, the language and tone, and how to answer, on one line', () => {
    const p = composeRequest({ request: 'A short intro\nabout our   grinder', language: german, tone: 'Friendly', format: 'markdown' });
    assert.ok(p.startsWith('A short intro about our grinder Write the answer in German, in a friendly tone.'), p);
    assert.ok(!/\s{2}|\n/.test(p), 'one line, single spaces');
    assert.match(p, /write it in HTML using only the tags h1 to h6, p, ul, ol, li, blockquote, pre and br/);
    assert.equal(checkPrompt('A short intro', p), undefined, 'within the limit');
  });

  it('asks for HTML in an HTML file and for the text alone in code', () => {
    assert.match(composeRequest({ request: 'A footer', format: 'html' }), /^A footer Answer in HTML, with nothing before or after it\.$/);
    assert.equal(composeRequest({ request: 'A comment', format: 'code' }), 'A comment Answer with the text only.');
  });
});

describe('write: HTML documents (the web editor\'s) get HTML paragraphs', () => {
  const sent = '<h2>Plan</h2><p>We ship <strong>Monday</strong>.</p><p>Then rest.</p>';

  it('an answer in HTML is taken as it is', () => {
    assert.equal(decodeAnswer(' <p>New <em>one</em>.</p><p>Two.</p>\n', 'html', sent), '<p>New <em>one</em>.</p><p>Two.</p>');
  });

  it('an answer in plain text (the model ignored "answer in HTML") becomes HTML paragraphs where block markup was', () => {
    assert.equal(decodeAnswer('First & best.\n\nSecond <line>\nwith a break.', 'html', sent), '<p>First &amp; best.</p><p>Second &lt;line&gt;<br>with a break.</p>');
    assert.equal(decodeAnswer('# Title\n\n- a\n- b', 'html', sent), '<h1>Title</h1><ul><li>a</li><li>b</li></ul>');
    assert.equal(decodeAnswer('Only one paragraph.', 'html', '<p>x</p>'), '<p>Only one paragraph.</p>');
  });

  it('paragraphs with inline markup of their own keep it; an HTML block among plain paragraphs stays a block', () => {
    assert.equal(decodeAnswer('Some <strong>bold</strong> words.\n\n<h2>Kept</h2>', 'html', sent), '<p>Some <strong>bold</strong> words.</p><h2>Kept</h2>');
    assert.equal(decodeAnswer('Line one<br>line two.\n\n<h2>Kept</h2>', 'html', sent), '<p>Line one<br>line two.</p><h2>Kept</h2>');
  });

  it('a selection inside a paragraph (no block markup) gets the answer inline, as it is', () => {
    assert.equal(decodeAnswer('better words', 'html', 'some <b>words</b>'), 'better words');
  });

  it('a text made HTML for an HTML editor (Insert at Cursor, Replace Selection)', () => {
    assert.equal(textAsHtml('# Title\n\nOne & two.\nThree.\n\n1. a\n2. b'), '<h1>Title</h1><p>One &amp; two.<br>Three.</p><ol><li>a</li><li>b</li></ol>');
    assert.equal(textAsHtml('Just a line.'), '<p>Just a line.</p>');
    assert.equal(textAsHtml('<p>Already HTML</p>'), '<p>Already HTML</p>');
  });
});

describe("New Document's prompt: one line as typed, several lines as the writing actions send a selection", () => {
  it('a one-line prompt is sent as it is (trimmed), runs of spaces and Markdown-looking text included', () => {
    assert.equal(documentPrompt('  A launch plan   for a small product  '), 'A launch plan   for a small product');
    assert.equal(documentPrompt('# not a heading, one line'), '# not a heading, one line');
    assert.equal(documentPrompt('- one item\n\n'), '- one item', 'trailing blank lines make no second line');
    assert.equal(documentPromptLength('  12 letters  '), 10);
  });

  it('paragraphs, headings and lists go as the minimal HTML of encodeText, which the flattening leaves whole', () => {
    const text = '# Plan\n\nA launch plan for a small product.\nWith two lines.\n\n- Faster saves\n- Offline drafts\n';
    const sent = documentPrompt(text);
    assert.equal(sent, encodeText(text, 'markdown').text, 'the one helper the writing actions use');
    assert.equal(sent, '<h1>Plan</h1><p>A launch plan for a small product.<br>With two lines.</p><ul><li>Faster saves</li><li>Offline drafts</li></ul>');
    assert.equal(flattenPrompt(sent), sent, 'the server has nothing to join');
    assert.equal(decodeAnswer(flattenPrompt(sent), 'markdown'), '# Plan\n\nA launch plan for a small product.\nWith two lines.\n\n- Faster saves\n- Offline drafts');
  });

  it('counts what is sent as the server counts it: the HTML, emoji as one character', () => {
    const text = 'First 🚀 paragraph.\n\nSecond.';
    assert.equal(documentPrompt(text), '<p>First 🚀 paragraph.</p><p>Second.</p>');
    assert.equal(documentPromptLength(text), codePoints('<p>First 🚀 paragraph.</p><p>Second.</p>'));
    assert.ok(documentPromptLength(text) > codePoints(text.trim()), 'more than the characters typed: the tags count');
    // At the limit: a text whose HTML is 2,048 characters passes; one character more does not.
    const body = 'x'.repeat(LIMITS.prompt - '<p></p><p>y</p>'.length);
    assert.equal(documentPromptLength(`${body}\n\ny`), LIMITS.prompt);
    assert.equal(documentPromptLength(`${body}x\n\ny`), LIMITS.prompt + 1);
  });
});
