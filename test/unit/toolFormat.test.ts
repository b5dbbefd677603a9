/** What the language-model tools answer (src/operations/format.ts): HTML or plain text, excerpts, and the lines a model reads. */
import assert from 'node:assert/strict';
import type { ContentDocument } from '../../src/api/index';
import { changeLines, documentData, documentLine, excerpt, isHtml, plainLine, projectsText, quotaText, readText, searchText } from '../../src/operations/format';

function doc(extra: Partial<ContentDocument> = {}): ContentDocument {
  return {
    id: 12,
    name: 'Coffee guide',
    template: { id: 9, name: 'Blog post' },
    result: 'Plain words.',
    resultIsNull: false,
    words: 1234,
    favorite: false,
    created_at: '2024-03-21T15:30:06.000000Z',
    updated_at: '2024-03-22T10:00:00.000000Z',
    ...extra,
  };
}

describe('format: the tools\' answers', () => {
  it('isHtml: the web app\'s markup is HTML; Markdown (a <br> in a line included, as the backup and the editor read it) and angle brackets in prose are not', () => {
    assert.equal(isHtml('<p>Hello</p>'), true);
    assert.equal(isHtml('<p>Line<br>next</p>'), true);
    assert.equal(isHtml('Line<br>next'), false);
    assert.equal(isHtml('<h2 class="x">Title</h2>'), true);
    assert.equal(isHtml('# Title\n\n- item **bold**'), false);
    assert.equal(isHtml('if a < b and c > d'), false);
    assert.equal(isHtml('<grinder> is not a tag'), false);
  });

  it('plainLine and excerpt: tags dropped, entities read, one line, cut with an ellipsis at the limit', () => {
    assert.equal(plainLine('<p>Our <strong>new</strong>&nbsp;beans</p><p>are &amp; were</p>'), 'Our new beans are & were');
    assert.equal(plainLine('a\n\n  b\tc'), 'a b c');
    assert.equal(excerpt('x'.repeat(160)), 'x'.repeat(160));
    assert.equal(excerpt('x'.repeat(161)), `${'x'.repeat(159)}…`);
    assert.equal([...excerpt('😀'.repeat(200))].length, 160, 'counted in characters, never splitting a pair');
  });

  it('documentLine and readText: id, name, template, words, favorite, dates; says which kind of text follows', () => {
    const d = documentData(doc({ favorite: true }), 'Blog post', 'text');
    assert.equal(documentLine(d), '#12 "Coffee guide" — Blog post · 1,234 words · favorite · created 2024-03-21T15:30:06.000000Z · updated_at 2024-03-22T10:00:00.000000Z');
    assert.equal(readText('Me @ host', d), `Account: Me @ host\nDocument ${documentLine(d)}\nIts text is plain text:\n\nPlain words.`);
    const html = documentData(doc({ result: '<p>Hi</p>' }), 'Blog post', 'text');
    assert.equal(html.format, 'html');
    assert.match(readText('h', html), /Its text is HTML \(edited in the web app\):\n\n<p>Hi<\/p>$/);
    assert.match(readText('h', documentData(doc({ result: '' }), 'Blog post', 'text')), /Its text is plain text, and empty\.$/);
  });

  it('searchText: what was searched, how many of how many, the order, each row with its excerpt', () => {
    const rows = [documentData(doc(), 'Blog post', 'excerpt')];
    const text = searchText({ account: 'A', query: 'coffee', searchIn: 'name', favoritesOnly: true, sort: 'nameAsc', total: 7 }, rows);
    assert.equal(text.split('\n')[0], 'Account: A');
    assert.equal(text.split('\n')[1], '1 of 7 documents whose name contains "coffee", among favorites, by name A–Z:');
    assert.equal(text.split('\n')[3], '  Plain words.');
    assert.equal(searchText({ account: 'A', searchIn: 'result', query: 'x', favoritesOnly: false, sort: 'newest', total: 0 }, []), 'Account: A\nNo documents whose text contains "x".');
  });

  it('changeLines: what an update changes, as its confirmation lists it', () => {
    assert.deepEqual(changeLines(doc(), { name: 'New', result: 'abc', favorite: true }), [
      'Rename "Coffee guide" to "New"',
      'Replace its text (12 characters) with a new text of 3 characters',
      'Add it to favorites',
    ]);
    assert.deepEqual(changeLines(undefined, { favorite: false }), ['Remove it from favorites']);
  });

  it('quotaText: the quota a creation uses, with the figures already read when there are some', () => {
    assert.equal(quotaText(undefined, () => undefined), "It counts toward the plan's monthly quota: one document and the words the service writes.");
    const info = { limits: {}, month: {}, total: {} };
    assert.match(quotaText(info, (_i, c) => (c === 'words' ? '5 of 10 (50 %)' : undefined)), /\(used this month: words 5 of 10 \(50 %\)\)\.$/);
  });

  it('projectsText: each project with its reports and score words', () => {
    const text = projectsText('A', [{ project: 'Shop', reports: 2, average_score: 81.5, score: 'Good' }, { project: 'Blog', reports: 1 }], 9, undefined);
    assert.equal(text, 'Account: A\n2 of 9 projects:\n- "Shop" — 2 reports · average score 81.5 of 100 (Good)\n- "Blog" — 1 report · no score');
  });
});
