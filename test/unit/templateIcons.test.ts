/**
 * The icons of the template groups (src/api/templateCategories.ts): every built-in template has its kind's codicon.
 */
import assert from 'node:assert/strict';
import { templateCategory, templateIcon } from '../../src/api/templateCategories';

describe('template group icons', () => {
  it('every built-in template has the codicon of its kind of text; a custom template has none', () => {
    for (let id = 1; id <= 52; id++) assert.match(templateIcon(id) ?? '', /^[a-z][a-z-]*$/, `template ${id} (${templateCategory(id)})`);
    assert.equal(templateIcon(5), 'rss', 'Blog');
    assert.equal(templateIcon(23), 'mail', 'Email');
    assert.equal(templateIcon(53), undefined);
  });
});
