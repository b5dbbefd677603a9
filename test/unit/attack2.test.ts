/**
 * DocumentService (vscode-free) when the key changes while a change is on the wire, in plain Node against the
 * sandbox over HTTP on 127.0.0.1: signing out and in again with the same key is the same account (its answers are
 * kept); another key is another account (refused); and a change for the new account never waits behind one still
 * on the wire to the previous one.
 */
import assert from 'node:assert/strict';
import { createApi, type ContentApi } from '../../src/api';
import type { Credentials } from '../../src/auth/credentials';
import { Emitter } from '../../src/model/emitter';
import type { ApiProvider } from '../../src/services/apiProvider';
import { DocumentService } from '../../src/services/documentService';
import { startSandbox, type Sandbox } from '../sandbox/server';

const ID = 7001;
const AT = new Date('2026-06-01T10:00:00Z');

describe('attack2: DocumentService across a sign-out and sign-in', () => {
  let sb: Sandbox;
  let client: ContentApi;
  let signIn: Emitter<boolean>;
  let service: DocumentService;
  /** The key the user has now (undefined: signed out). */
  let key: string | undefined;

  function make(withIdentity: boolean): DocumentService {
    const api = { get: () => client, onDidChangeServer: new Emitter<void>().event } as unknown as ApiProvider;
    const credentials = { onDidChange: signIn.event } as unknown as Credentials;
    return new DocumentService(api, credentials, withIdentity ? () => Promise.resolve(key && `${sb.docsUrl}\n${key}`) : undefined);
  }

  /** The key removed, then `next` set (as Sign Out then Set API Key… do). */
  function resignIn(next: string): void {
    key = undefined;
    signIn.fire(false);
    key = next;
    signIn.fire(true);
  }

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    client = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
  });

  beforeEach(() => {
    sb.clearFaults();
    sb.setLatency(0);
    sb.documents.set(ID, { id: ID, name: 'Before', templateId: 1, result: 'Text', words: 1, favorite: false, createdAt: AT, updatedAt: AT });
    signIn = new Emitter<boolean>();
    key = sb.key;
  });

  afterEach(() => {
    service?.dispose();
    sb.setLatency(0);
  });

  after(async () => {
    client?.dispose();
    await sb?.close();
  });

  it('the same key again while a rename is on the wire: the answer is kept', async () => {
    service = make(true);
    sb.setLatency(400);
    const rename = service.rename(ID, 'After');
    await new Promise((r) => setTimeout(r, 100));
    resignIn(sb.key);
    const doc = await rename;
    assert.equal(doc.name, 'After');
    assert.equal(service.get(ID)?.name, 'After');
    assert.equal(await service.isCurrent(0), true);
  });

  it('another key while a rename is on the wire: refused (another account)', async () => {
    service = make(true);
    sb.setLatency(400);
    const rename = service.rename(ID, 'After');
    await new Promise((r) => setTimeout(r, 100));
    resignIn('another-key-0123456789');
    await assert.rejects(rename, /changed/);
    assert.equal(service.get(ID), undefined);
    assert.equal(await service.isCurrent(0), false);
  });

  it('signed out when the answer comes: refused (no account to give it to)', async () => {
    service = make(true);
    sb.setLatency(400);
    const read = service.fetch(ID);
    await new Promise((r) => setTimeout(r, 100));
    key = undefined;
    signIn.fire(false);
    await assert.rejects(read, /^Error: You signed out while the document was being read\.$/);
  });

  it('signed out while a save is on the wire: the refusal says it was saved in the account signed out of, not "another key or server"', async () => {
    service = make(true);
    sb.setLatency(400);
    const save = service.saveResult(ID, 'Saved while signing out');
    await new Promise((r) => setTimeout(r, 100));
    key = undefined;
    signIn.fire(false);
    await assert.rejects(save, /^Error: You signed out while this change was being sent: it was made in the account you signed out of\.$/);
    assert.equal(sb.documents.get(ID)?.result, 'Saved while signing out', 'the server has the text');
  });

  it('without a way to tell accounts apart, any sign-out makes the answer another account\'s', async () => {
    service = make(false);
    sb.setLatency(400);
    const rename = service.rename(ID, 'After');
    await new Promise((r) => setTimeout(r, 100));
    resignIn(sb.key);
    await assert.rejects(rename, /changed/);
  });

  it('a change for the new account does not wait behind a hanging change of the previous one', async () => {
    service = make(true);
    sb.setFault('documents.update', { kind: 'hang', count: 1 });
    const hanging = service.rename(ID, 'Hangs');
    hanging.catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    resignIn('another-key-0123456789');
    const t0 = Date.now();
    const doc = await service.setFavorite(ID, true);
    assert.ok(Date.now() - t0 < 2_000, `sent at once (${Date.now() - t0} ms)`);
    assert.equal(doc.favorite, true);
    await assert.rejects(hanging);
  });
});
