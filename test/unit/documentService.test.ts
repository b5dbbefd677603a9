/**
 * DocumentService (src/documents/documentService.ts, vscode-free): the one account's documents, in plain Node against
 * the sandbox over HTTP on 127.0.0.1. Its requests go through its account's client only; once the account is disposed
 * (signed out, removed, or its key or server changed: another account) a request is refused before it leaves, and an
 * answer that comes late is told to no one (the views and files of that account went with it).
 */
import assert from 'node:assert/strict';
import { ApiError } from '../../src/api/errors';
import { createApi, type ContentApi } from '../../src/api';
import type { ApiProvider } from '../../src/accounts/apiProvider';
import { DocumentService } from '../../src/documents/documentService';
import { startSandbox, type Sandbox } from '../sandbox/server';

const ID = 7001;
const AT = new Date('2026-06-01T10:00:00Z');

describe('DocumentService of one account', () => {
  let sb: Sandbox;
  let client: ContentApi;
  let service: DocumentService;
  /** Whether the account is gone (the account's client then refuses, as ApiProvider does). */
  let gone: boolean;

  function make(): DocumentService {
    const api: Pick<ApiProvider, 'get'> = {
      get: () => {
        if (gone) throw new ApiError('signedOut', 'The account is no longer signed in here: nothing was sent.');
        return client;
      },
    };
    return new DocumentService(api);
  }

  /** The account goes, as the registry disposes it (its services go with it). */
  function accountGoes(): void {
    gone = true;
    service.dispose();
  }

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    client = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
  });

  after(async () => {
    client?.dispose();
    await sb?.close();
  });

  beforeEach(() => {
    sb.clearFaults();
    sb.setLatency(0);
    sb.resetRequests();
    sb.documents.set(ID, { id: ID, name: 'Before', templateId: 1, result: 'Text', words: 1, favorite: false, createdAt: AT, updatedAt: AT });
    gone = false;
    service = make();
  });

  afterEach(() => {
    service?.dispose();
    sb.setLatency(0);
  });

  it('every request of a gone account is refused before it leaves: nothing reaches the server', async () => {
    accountGoes();
    const before = sb.requests.length;
    for (const attempt of [
      () => service.fetch(ID),
      () => service.rename(ID, 'After'),
      () => service.setFavorite(ID, true),
      () => service.saveResult(ID, 'New text'),
      () => service.delete(ID),
      () => service.create({ name: 'New', prompt: 'About it', creativity: 0.5, templateId: 1 }),
      () => service.list({ perPage: 10 }),
    ]) {
      await assert.rejects(attempt(), (e: unknown) => e instanceof ApiError && e.kind === 'signedOut' && /nothing was sent/.test(e.message));
    }
    assert.equal(sb.requests.length, before, 'no request reached the server');
    assert.equal(sb.documents.get(ID)?.name, 'Before', 'the document is as it was');
    assert.ok(sb.documents.has(ID), 'and still there');
  });

  it('a rename on the wire when the account goes is made in that account (its server, its key) and told to no one', async () => {
    const heard: string[] = [];
    service.onDidChange(({ doc }) => heard.push(doc.name));
    sb.setLatency(300);
    const rename = service.rename(ID, 'After');
    await new Promise((r) => setTimeout(r, 100));
    accountGoes();
    const doc = await rename;
    assert.equal(doc.name, 'After', 'the answer is the one of the account the request was sent to');
    assert.equal(sb.documents.get(ID)?.name, 'After');
    assert.deepEqual(heard, [], 'the answer landed nowhere: the account\'s views and files went with it');
    assert.equal(service.get(ID), undefined, 'nothing is known of it any more');
  });

  it('a creation on the wire when the account goes is told to no one', async () => {
    const created: number[] = [];
    service.onDidCreate((d) => created.push(d.id));
    sb.setLatency(300);
    const create = service.create({ name: 'Late', prompt: 'About it', creativity: 0.5, templateId: 1 });
    await new Promise((r) => setTimeout(r, 100));
    accountGoes();
    const doc = await create;
    assert.deepEqual(created, [], 'no view hears of it');
    assert.equal(service.get(doc.id), undefined);
  });

  it('the changes of one document are sent one at a time, in the order they were asked for', async () => {
    sb.setLatency(150);
    const first = service.rename(ID, 'One');
    const second = service.rename(ID, 'Two');
    const third = service.setFavorite(ID, true);
    await Promise.all([first, second, third]);
    const doc = sb.documents.get(ID)!;
    assert.equal(doc.name, 'Two', 'the later rename is the one kept');
    assert.equal(doc.favorite, true);
    assert.equal(service.get(ID)?.name, 'Two');
  });

  it('a document object read here is known to be this service\'s (its account\'s); one made up elsewhere is not', async () => {
    const doc = await service.fetch(ID);
    assert.equal(service.readThis(doc), true);
    assert.equal(service.readThis({ ...doc }), false);
  });
});
