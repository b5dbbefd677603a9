/** The passage of a text-search result around the words found, as its row and tooltip show it. */
import assert from 'node:assert/strict';
import { excerptOf, readableText } from '../../src/tree/excerpt';

function marked(e: { text: string; start: number; end: number } | undefined): string | undefined {
  return e && `${e.text.slice(0, e.start)}[${e.text.slice(e.start, e.end)}]${e.text.slice(e.end)}`;
}

describe('rows: where a text search found its words', function () {
  it('the passage around the first match, case and accents ignored as the server searches, the words marked', function () {
    const text = 'Nos croissants sont délicieux et faits chaque matin avec du beurre de Normandie.';
    assert.equal(marked(excerptOf(text, 'DELICIEUX')), 'Nos croissants sont [délicieux] et faits chaque matin avec du beurre de Normandie.');
    assert.equal(marked(excerptOf(text, '  matin ')), 'Nos croissants sont délicieux et faits chaque [matin] avec du beurre de Normandie.', 'the term trimmed as the server trims it');
  });

  it('a long text is cut around the match at spaces, with an ellipsis on each cut side, on one line', function () {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
    words[30] = 'Solar\npanels';
    const e = excerptOf(words.join(' '), 'solar panels', 60)!;
    assert.ok(e.text.startsWith('…word') && e.text.endsWith('…'), e.text);
    assert.equal(e.text.slice(e.start, e.end), 'Solar panels', 'a line break in the text is a space in the passage (the server search is on the raw text)');
    assert.ok(e.text.length <= 64, `${e.text.length}: about the width asked`);
    assert.ok(!e.text.includes('\n'));
    assert.ok(e.start >= 12, 'some words before the match');
  });

  it('an HTML text is searched and shown as its words, without markup or entities', function () {
    const html = '<h1>Menu</h1><p>Un pain <strong>d&#233;licieux</strong> &amp;,&nbsp;chaque jour.</p><p><br></p>';
    assert.equal(readableText(html).replace(/\s+/g, ' ').trim(), 'Menu Un pain délicieux &, chaque jour.');
    assert.equal(marked(excerptOf(html, 'delicieux')), 'Menu Un pain [délicieux] &, chaque jour.');
  });

  it('a match at the very start or end, a match on a character outside the BMP, and no match', function () {
    assert.equal(marked(excerptOf('Rockets 🚀 fly', '🚀')), 'Rockets [🚀] fly');
    assert.equal(marked(excerptOf('Zebra', 'zebra')), '[Zebra]');
    assert.equal(excerptOf('Strasse', 'straße'), undefined, 'letters only the collation equates: no passage rather than a wrong one');
    assert.equal(excerptOf('<p class="intro">Hello</p>', 'intro'), undefined, 'found by the server in the markup: nothing to show');
    assert.equal(excerptOf(null, 'x'), undefined);
    assert.equal(excerptOf('text', '   '), undefined);
  });
});
