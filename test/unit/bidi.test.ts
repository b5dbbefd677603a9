/** A name shown in a row of the views, isolated from the row's description when it holds right-to-left text. */
import assert from 'node:assert/strict';
import { FSI, hasRightToLeft, isolateName, PDI } from '../../src/tree/bidi';

describe('rows: a right-to-left name is isolated', function () {
  it('a Hebrew or Arabic name goes between FSI and PDI, so the word count after it stays on its side', function () {
    assert.equal(isolateName('שלום – עמוד נחיתה'), `${FSI}שלום – עמוד נחיתה${PDI}`);
    assert.equal(isolateName('مرحبا بالعالم'), '\u2068مرحبا بالعالم\u2069');
    assert.equal(isolateName('Landing שלום'), `${FSI}Landing שלום${PDI}`, 'a name that ends right to left would pull the count too');
  });

  it('a left-to-right name is left as it is (typing to find a row matches its first letters)', function () {
    for (const name of ['Café Ünïcode', 'Emoji 🚀 rockets', '100% organic', 'Привет', '日本語のタイトル', '']) {
      assert.equal(isolateName(name), name);
      assert.equal(hasRightToLeft(name), false, name);
    }
  });
});
