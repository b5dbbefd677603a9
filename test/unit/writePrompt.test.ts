/**
 * The writing actions' prompt, structure round trip and document names (src/write/prompt.ts), in plain Node.
 * The server's flattening is the sandbox's (test/sandbox/server.ts flattenPrompt, written from CONTRACT.md).
 */
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/api/validate';
import { TEMPLATES } from '../../src/api/templates';
import { WRITE_ACTIONS, WRITE_ACTION_IDS } from '../../src/write/actions';
import {
  checkPrompt,
  composePrompt,
  decodeAnswer,
  documentName,
  encodeText,
  findLanguage,
  LANGUAGES,
  promptLength,
  replacementFor,
  TONES,
} from '../../src/write/prompt';
import { flattenPrompt } from '../sandbox/server';

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
});
