/**
 * The path of a single-document URI (`content-docs://<id>.<account>/<host>/<Template>/<Name>.md`, src/files/names.ts,
 * vscode-free): its first folder is the host of the account's documents server, so that one document opened from two
 * accounts on two servers reads apart in tabs (VS Code tells tabs of one file name apart by their parent folders), in
 * breadcrumbs and in the window title. The form of earlier versions (`/<Template>/<Name>.md`, restored tabs) still
 * names the same file.
 */
import assert from 'node:assert/strict';
import { documentPath, documentPathPart, hostFolderName } from '../../src/files/names';

const DOC = { id: 5, name: 'Q3 plan', template: { id: 40, name: 'Blog post' } };

describe('document URIs: the host folder and the file (vscode-free)', () => {
  it('the host folder is the documents server\'s host, with its port (the colon kept), never a path or a scheme', () => {
    assert.equal(hostFolderName('https://content.example.com/api/v1/'), 'content.example.com');
    assert.equal(hostFolderName('http://127.0.0.1:8123'), '127.0.0.1:8123');
    assert.equal(hostFolderName('https://user:pw@staging.example.com:8443/x'), 'staging.example.com:8443');
    assert.equal(hostFolderName('http://[::1]:4173/'), '[::1]:4173');
    // Not an address: still one segment (no slash makes a folder of it).
    assert.ok(!hostFolderName('not/an address').includes('/'));
  });

  it('a document\'s path is /<host>/<Template>/<Name>.<ext>: two accounts\' copies share the file name, not the folder', () => {
    const prod = documentPath(hostFolderName('https://content.example.com'), DOC, '.md');
    const staging = documentPath(hostFolderName('https://staging.example.com'), DOC, '.md');
    assert.equal(prod, '/content.example.com/Blog post/Q3 plan.md');
    assert.equal(staging, '/staging.example.com/Blog post/Q3 plan.md');
    assert.equal(prod.split('/').pop(), staging.split('/').pop(), 'one file name');
    assert.notEqual(prod.slice(0, prod.lastIndexOf('/')), staging.slice(0, staging.lastIndexOf('/')), 'two parent folders');
    assert.equal(documentPath('127.0.0.1:8123', { id: 6, name: '/etc/.x' }, '.txt'), '/127.0.0.1:8123/No template/\u2215etc\u2215.x.txt');
    assert.equal(documentPath('h', { ...DOC, result: '<h1>T</h1><p>x</p>' }, '.md'), '/h/Blog post/Q3 plan.html', 'an HTML text is a .html file');
  });

  it('the new form: the host and the template are folders, the third segment the file', () => {
    assert.deepEqual(documentPathPart([]), { kind: 'folder', depth: 0 });
    assert.deepEqual(documentPathPart(['content.example.com']), { kind: 'folder', depth: 1 });
    assert.deepEqual(documentPathPart(['content.example.com', 'Blog post']), { kind: 'folder', depth: 2 });
    assert.deepEqual(documentPathPart(['content.example.com', 'Blog post', 'Q3 plan.md']), { kind: 'file', file: 'Q3 plan.md' });
    assert.deepEqual(documentPathPart(['127.0.0.1:8123', 'Blog post', 'Q3 plan.html']), { kind: 'file', file: 'Q3 plan.html' });
  });

  it('the form of earlier versions (a tab restored from one): the template is a folder and the second segment the file', () => {
    assert.deepEqual(documentPathPart(['Blog post']), { kind: 'folder', depth: 1 });
    assert.deepEqual(documentPathPart(['Blog post', 'Q3 plan.md']), { kind: 'file', file: 'Q3 plan.md' });
    assert.deepEqual(documentPathPart(['Blog post', 'Q3 plan.TXT']), { kind: 'file', file: 'Q3 plan.TXT' });
    assert.deepEqual(documentPathPart(['Freestyle', 'Page.html']), { kind: 'file', file: 'Page.html' });
  });

  it('the host folder, when known, tells the folder of a template named like a file from a file of the earlier form', () => {
    const host = 'content.example.com';
    assert.deepEqual(documentPathPart([host, 'Notes.md'], host), { kind: 'folder', depth: 2 });
    assert.deepEqual(documentPathPart([host, 'Notes.md', 'Plan.md'], host), { kind: 'file', file: 'Plan.md' });
    assert.deepEqual(documentPathPart(['Notes.md', 'Plan.md'], host), { kind: 'file', file: 'Plan.md' }, 'the earlier form on that template');
    assert.deepEqual(documentPathPart(['Notes.md'], host), { kind: 'folder', depth: 1 });
    assert.deepEqual(documentPathPart(['Blog post', 'Q3 plan.md'], host), { kind: 'file', file: 'Q3 plan.md' });
    assert.deepEqual(documentPathPart([host, 'Blog post'], host), { kind: 'folder', depth: 2 });
    // A server whose host ends like a file name (Moldova's .md): its folder is the first, never a file.
    assert.deepEqual(documentPathPart(['docs.example.md'], 'docs.example.md'), { kind: 'folder', depth: 1 });
    assert.deepEqual(documentPathPart(['docs.example.md', 'Blog post', 'Q3 plan.md'], 'docs.example.md'), { kind: 'file', file: 'Q3 plan.md' });
  });

  it('deeper paths name nothing', () => {
    assert.equal(documentPathPart(['h', 'Blog post', 'Q3 plan.md', 'more']), undefined);
  });
});
