/**
 * HTML documents as files: a document whose text is HTML (the web editor's) is `<Name>.html` in the account folder, and
 * its path keeps meaning it when its format changes on the server (as a rename does); Markdown and plain text keep the
 * extension of the setting. File names with either extension name the same document.
 */
import assert from 'node:assert/strict';
import { AccountIndex } from '../../src/files/accountIndex';
import { detectFormat, type ContentFormat } from '../../src/content/format';
import { documentNameFromFileName, HtmlFormats, isHtmlDocument, nameFromFileName } from '../../src/files/names';

const ARTICLE = { id: 4, name: 'Article' };
const QUILL = '<h1>Title</h1><p>One&nbsp;line.</p><p><br></p><ul><li>a</li><li class="ql-indent-1">b</li></ul>';

interface Listed {
  id: number;
  name: string;
  template: typeof ARTICLE;
  result: string | null;
}

function listed(id: number, name: string, result: string | null): Listed {
  return { id, name, template: ARTICLE, result };
}

async function indexOf(server: Listed[], ext = '.md'): Promise<AccountIndex> {
  const index = new AccountIndex(async () => ({ docs: [...server], unsure: [] }), ext, async (id) => server.find((d) => d.id === id) ?? null);
  await index.ensure();
  return index;
}

describe('HTML documents as files', () => {
  it('an HTML result is <Name>.html in the account folder; Markdown and empty results keep the setting\'s extension', async () => {
    const index = await indexOf([listed(1, 'Web', QUILL), listed(2, 'Plain', '# Title\n\nText<br>\nmore'), listed(3, 'Empty', null)]);
    assert.equal(index.pathOf(1), 'Article/Web.html');
    assert.equal(index.pathOf(2), 'Article/Plain.md');
    assert.equal(index.pathOf(3), 'Article/Empty.md');
    assert.equal(index.resolve('Article', 'Web.html'), 1);
    const txt = await indexOf([listed(1, 'Web', QUILL), listed(2, 'Plain', 'text')], '.txt');
    assert.deepEqual(txt.files('Article')?.map(([f]) => f).sort(), ['Plain.txt', 'Web.html']);
  });

  it('the index keeps whether a text is HTML, not the text itself', async () => {
    const index = await indexOf([listed(1, 'Web', QUILL)]);
    assert.equal((index.get(1) as { result?: unknown }).result, undefined);
    assert.equal(isHtmlDocument(index.get(1)!), true);
  });

  it('a document whose format changed (edited on the web) moves to the other extension, and its old path still means it', async () => {
    const server = [listed(1, 'Doc', 'plain text'), listed(2, 'Other', 'more text')];
    const index = await indexOf(server);
    assert.equal(index.pathOf(1), 'Article/Doc.md');
    const diff = index.upsert(listed(1, 'Doc', '<p>now HTML</p>'));
    assert.deepEqual(diff.addedFiles, ['Article/Doc.html']);
    assert.deepEqual(diff.removedFiles, ['Article/Doc.md']);
    assert.equal(index.resolve('Article', 'Doc.html'), 1);
    assert.equal(index.resolve('Article', 'Doc.md'), 1, 'the path an editor shows keeps meaning its document');
    // The same on a reload that brings the change.
    server[1] = listed(2, 'Other', '<p>HTML too</p>');
    await index.reload();
    assert.equal(index.pathOf(2), 'Article/Other.html');
    assert.equal(index.resolve('Article', 'Other.md'), 2);
  });

  it('a Markdown document never takes the path an HTML document of the same name was given', async () => {
    const index = await indexOf([listed(1, 'Same', '<p>web</p>'), listed(2, 'Same', 'plain')]);
    assert.equal(index.pathOf(1), 'Article/Same.html');
    assert.equal(index.pathOf(2), 'Article/Same.md');
    index.upsert(listed(2, 'Same', '<p>web now</p>'));
    assert.equal(index.pathOf(2), 'Article/Same (2).html');
    assert.equal(index.resolve('Article', 'Same.html'), 1);
  });

  it('a file name with .html, .md or .txt names the same document', () => {
    assert.equal(nameFromFileName('Q3 plan.html'), 'Q3 plan');
    assert.equal(nameFromFileName('Q3 plan.md'), 'Q3 plan');
    assert.equal(nameFromFileName('index.html.md'), 'index.html');
    assert.equal(nameFromFileName('notes.md.html'), 'notes.md');
    assert.equal(documentNameFromFileName('\u2024hidden.html', '.hidden'), '.hidden');
  });

  it('tells a record\'s format from its result, or from what the index kept', () => {
    assert.equal(isHtmlDocument({ id: 1, name: 'a', result: QUILL }), true);
    assert.equal(isHtmlDocument({ id: 1, name: 'a', result: 'Press <kbd>Ctrl</kbd>' }), false);
    assert.equal(isHtmlDocument({ id: 1, name: 'a', result: null }), false);
    assert.equal(isHtmlDocument({ id: 1, name: 'a', html: true }), true);
    assert.equal(isHtmlDocument({ id: 1, name: 'a' }), false);
  });

  it('scans a record\'s text once, however often its row or URI asks; a record read again is scanned once again', () => {
    let scans = 0;
    const formats = new HtmlFormats((text): ContentFormat => {
      scans++;
      return detectFormat(text);
    });
    const page = () => Array.from({ length: 100 }, (_, i) => ({ id: i + 1, result: i % 2 ? [...QUILL].join('') : `Plain ${i}` }));
    const shown = page();
    const first = shown.map((d) => formats.isHtml(d));
    assert.equal(scans, 100);
    // The tree asks again for every visible row on each refresh of the view.
    for (let refresh = 0; refresh < 3; refresh++) assert.deepEqual(shown.map((d) => formats.isHtml(d)), first);
    assert.equal(scans, 100, 'no record is scanned twice');
    // A list read again brings new records: each is scanned once, and says the same.
    assert.deepEqual(page().map((d) => formats.isHtml(d)), first);
    assert.equal(scans, 200);
    assert.equal(formats.isHtml({ result: null }), false, 'no text, nothing to scan');
    assert.equal(scans, 200);
  });

  it('the same id in two accounts (two records, two texts) is told apart: nothing is remembered by id', () => {
    const a = { id: 7, name: 'Quarterly letter', result: QUILL };
    const b = { id: 7, name: 'Quarterly letter', result: 'Text of B' };
    assert.equal(isHtmlDocument(a), true);
    assert.equal(isHtmlDocument(b), false);
    assert.equal(isHtmlDocument(a), true);
    assert.equal(isHtmlDocument({ ...b, result: QUILL }), true, 'B\'s text turned HTML: its new record says so');
  });
});
