/** A list of items in the display language (src/util/lists.ts): Intl's list of the language, English where it is unknown. */
import assert from 'node:assert/strict';
import { formatList } from '../../src/util/lists';

describe('formatList: a list of items in the display language', () => {
  it('English: commas and "and" before the last (two items: "and" alone); "or" for a choice', () => {
    assert.equal(formatList(['"A" (locked)', '"B"', '"C"'], 'en'), '"A" (locked), "B", and "C"');
    assert.equal(formatList(['x', 'y'], 'en'), 'x and y');
    assert.equal(formatList(['x', 'y', 'z'], 'en', { kind: 'or' }), 'x, y, or z');
  });

  it('German: "und" with no comma before it; "oder" for a choice', () => {
    assert.equal(formatList(['„A“ (gesperrt)', '„B“', '„C“'], 'de'), '„A“ (gesperrt), „B“ und „C“');
    assert.equal(formatList(['x', 'y'], 'de', { kind: 'or' }), 'x oder y');
  });

  it('Japanese: the ideographic comma, no word for "and"', () => {
    assert.equal(formatList(['「A」', '「B」', '「C」'], 'ja'), '「A」、「B」、「C」');
    assert.equal(formatList(['x', 'y'], 'ja', { kind: 'or' }), 'xまたはy');
  });

  it('VS Code\'s language ids (pt-br, zh-cn) are read as Intl\'s; a language Intl does not know is written in English', () => {
    assert.equal(formatList(['a', 'b', 'c'], 'pt-br'), 'a, b e c');
    assert.equal(formatList(['a', 'b', 'c'], 'zh-cn'), 'a、b和c');
    assert.equal(formatList(['a', 'b', 'c'], 'qq-zz'), 'a, b, and c');
    assert.equal(formatList(['a', 'b', 'c'], 'not a language!'), 'a, b, and c');
    assert.equal(formatList(['a', 'b', 'c'], ''), 'a, b, and c');
  });

  it('none is empty, one is the item itself', () => {
    assert.equal(formatList([], 'en'), '');
    assert.equal(formatList(['only'], 'de'), 'only');
  });

  it('most: the first items named, the rest counted as the last item, worded by the caller', () => {
    const more = (n: number) => `${n} more`;
    assert.equal(formatList(['a', 'b', 'c', 'd', 'e'], 'en', { most: 2, more }), 'a, b, and 3 more');
    assert.equal(formatList(['a', 'b'], 'en', { most: 2, more }), 'a and b', 'no "more" when all are named');
    assert.equal(formatList(['a', 'b', 'c'], 'ja', { most: 1, more: (n) => `他${n}件` }), 'a、他2件');
  });
});
