/**
 * The writing actions' text handling under pressure (src/write/prompt.ts), in plain Node: code and indentation
 * through the server's flattening, the 2,048 limit at its edge with emoji and the characters the server trims,
 * blank-looking selections, and names at the 128 limit. The server's flattening and trim are the sandbox's
 * (test/sandbox/server.ts, written from CONTRACT.md).
 */
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/api/validate';
import { checkPrompt, composePrompt, decodeAnswer, documentName, encodeText, formatOf, promptLength } from '../../src/write/prompt';
import { flattenPrompt, laravelTrim } from '../sandbox/server';

const codePoints = (s: string) => [...s].length;

/** What the model gets when the text is sent, answered back unchanged (a model that keeps the form it was asked for). */
function roundTrip(text: string, languageId: string): string {
  const format = formatOf(languageId);
  return decodeAnswer(flattenPrompt(encodeText(text, format).text), format, text);
}

describe('write adversary (unit): code, limits and names at their edges', () => {
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
