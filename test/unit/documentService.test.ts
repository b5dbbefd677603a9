/**
 * DocumentService (src/documents/documentService.ts, vscode-free) when the account changes while a request is on the
 * wire, in plain Node against the sandbox over HTTP on 127.0.0.1: signing out and in again with the same key is the
 * same account (its answers are kept); another key or another server address is another account (refused, in words
 * that say which: a sign-out, or the API key or server changed); and a change for the new account never waits
 * behind one still on the wire to the previous one.
 */
import assert from 'node:assert/strict';
import { createApi, type ContentApi } from '../../src/api';
import type { Credentials } from '../../src/accounts/credentials';
import { Emitter } from '../../src/model/emitter';
import type { ApiProvider } from '../../src/accounts/apiProvider';
import { DocumentService } from '../../src/documents/documentService';
import { startSandbox, type Sandbox } from '../sandbox/server';

const ID = 7001;
const AT = new Date('2026-06-01T10:00:00Z');

describe('DocumentService when the account changes while a request is on the wire', () => {
  let sb: Sandbox;
  let client: ContentApi;
  let signIn: Emitter<boolean>;
  let serverChanged: Emitter<void>;
  let service: DocumentService;
  /** The key the user has now (undefined: signed out). */
  let key: string | undefined;
  /** The documents server address in the settings ('' when none is set). */
  let url: string;

  /** As extension.ts reads the account: the documents server address and the key, undefined when either is missing. */
  function make(withIdentity = true): DocumentService {
    const api = { get: () => client, onDidChangeServer: serverChanged.event } as unknown as ApiProvider;
    const credentials = { onDidChange: signIn.event } as unknown as Credentials;
    const identity = () => Promise.resolve(key && url ? `${url}\n${key}` : undefined);
    return new DocumentService(api, credentials, withIdentity ? identity : undefined);
  }

  function signOut(): void {
    key = undefined;
    signIn.fire(false);
  }

  function signInWith(next: string): void {
    key = next;
    signIn.fire(true);
  }

  /** The key removed, then `next` set (as Sign Out then Set API Key… do). */
  function resignIn(next: string): void {
    signOut();
    signInWith(next);
  }

  const wire = () => new Promise((r) => setTimeout(r, 100));

  /** A sandbox and a client of the suite's own: a request one suite leaves hanging never reaches the next. */
  function ownSandbox(): void {
    before(async () => {
      sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
      client = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
    });

    after(async () => {
      client?.dispose();
      await sb?.close();
    });
  }

  beforeEach(() => {
    sb.clearFaults();
    sb.setLatency(0);
    sb.documents.set(ID, { id: ID, name: 'Before', templateId: 1, result: 'Text', words: 1, favorite: false, createdAt: AT, updatedAt: AT });
    signIn = new Emitter<boolean>();
    serverChanged = new Emitter<void>();
    key = sb.key;
    url = sb.docsUrl;
  });

  afterEach(() => {
    service?.dispose();
    sb.setLatency(0);
  });

  describe('across a sign-out and sign-in', () => {
    ownSandbox();

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

  describe('what a refused answer of the account used before says', () => {
    ownSandbox();

    it('signed out, then in with another key before the answer: "the API key or server changed", not "you signed out"', async () => {
      service = make();
      sb.setLatency(400);
      const save = service.saveResult(ID, 'Sent to the first account');
      await wire();
      signOut();
      signInWith('another-key-0123456789');
      await assert.rejects(save, /^Error: The API key or server changed while this change was being sent: it was made in the previous account\.$/);
    });

    it('signed out, then in with the same key before the answer: the answer is kept', async () => {
      service = make();
      sb.setLatency(400);
      const save = service.saveResult(ID, 'Kept');
      await wire();
      signOut();
      signInWith(sb.key);
      const doc = await save;
      assert.equal(doc.result, 'Kept');
      assert.equal(service.get(ID)?.result, 'Kept');
    });

    it('signed out while a delete is on the wire: said as a sign-out, and the document was deleted in the account signed out of', async () => {
      service = make();
      sb.setLatency(400);
      const deletion = service.delete(ID);
      await wire();
      signOut();
      await assert.rejects(deletion, /^Error: You signed out while the document was being deleted: it was deleted in the account you signed out of\.$/);
      assert.equal(sb.documents.has(ID), false);
    });

    it('the documents server address removed (still signed in) while a save is on the wire: not said as a sign-out', async () => {
      service = make();
      sb.setLatency(400);
      const save = service.saveResult(ID, 'Sent before the address was removed');
      await wire();
      url = '';
      serverChanged.fire();
      await assert.rejects(save, /^Error: The API key or server changed while this change was being sent: it was made in the previous account\.$/);
    });

    it('another server address while a read is on the wire: "the API key or server changed"', async () => {
      service = make();
      sb.setLatency(400);
      const read = service.fetch(ID);
      await wire();
      url = 'http://127.0.0.1:1/other';
      serverChanged.fire();
      await assert.rejects(read, /^Error: The API key or server changed while the document was being read\.$/);
    });

    it('without an identity, signed out then in again: refused as another key (the accounts cannot be told apart)', async () => {
      service = make(false);
      sb.setLatency(400);
      const rename = service.rename(ID, 'After');
      await wire();
      signOut();
      signInWith(sb.key);
      await assert.rejects(rename, /^Error: The API key or server changed while this change was being sent: it was made in the previous account\.$/);
    });
  });
});
