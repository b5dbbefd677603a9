/**
 * The icons of the template groups (src/api/templateCategories.ts): every built-in template has its kind's codicon.
 */
import assert from 'node:assert/strict';
import { templateCategory, templateIcon } from '../../src/api/templateCategories';
import { useVscodeL10n } from '../../src/util/l10n';

describe('template group icons', () => {
  it('every built-in template has the codicon of its kind of text; a custom template has none', () => {
    for (let id = 1; id <= 52; id++) assert.match(templateIcon(id) ?? '', /^[a-z][a-z-]*$/, `template ${id} (${templateCategory(id)})`);
    assert.equal(templateIcon(5), 'rss', 'Blog');
    assert.equal(templateIcon(23), 'mail', 'Email');
    assert.equal(templateIcon(53), undefined);
  });

  it('the kind of text New Document… says of a template is in the display language', () => {
    useVscodeL10n({ t: (message) => `«${message}»`, language: 'xx' });
    try {
      for (let id = 1; id <= 52; id++) assert.match(templateCategory(id) ?? '', /^«.+»$/, `template ${id}: ${templateCategory(id)}`);
      assert.equal(templateCategory(5), '«Blog»');
      assert.equal(templateCategory(53), undefined);
    } finally {
      useVscodeL10n(undefined);
    }
    assert.equal(templateCategory(1), 'Any text: the prompt alone decides', 'English without a translator');
  });
});
