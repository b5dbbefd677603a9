/**
 * Name order without a collator for plain names (letters, digits, spaces, hyphens), checked exhaustively against
 * ICU and inside mixed sorts; and how DocumentService words the refusal of an answer that belongs to the account
 * used before (signed out, another key, another server address), in plain Node against the sandbox on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { createApi, type ContentApi } from '../../src/api';
import { compareNames, sameName } from '../../src/api/collation';
import type { Credentials } from '../../src/auth/credentials';
import type { ContentDocument } from '../../src/api/index';
import { DocumentRecords } from '../../src/fs/documentRecords';
import { Emitter } from '../../src/model/emitter';
import type { ApiProvider } from '../../src/services/apiProvider';
import { DocumentService } from '../../src/services/documentService';
import { startSandbox, type Sandbox } from '../sandbox/server';

const icu = new Intl.Collator('en', { sensitivity: 'base', usage: 'sort', numeric: false, ignorePunctuation: false });
const unpad = (s: string) => s.replace(/ +$/, '');

/** Every string of up to `max` characters over `alphabet`. */
function allWords(alphabet: readonly string[], max: number): string[] {
  const out = [''];
  let frontier = [''];
  for (let n = 1; n <= max; n++) {
    frontier = frontier.flatMap((w) => alphabet.map((c) => w + c));
    out.push(...frontier);
  }
  return out;
}

describe('attack5: compareNames for letters, digits, spaces and hyphens', () => {
  it('attack5: agrees with ICU on every pair of names of up to 3 characters over a b A z 0 9 space hyphen', () => {
    const words = allWords(['a', 'A', 'b', 'z', '0', '9', ' ', '-'], 3);
    let checked = 0;
    for (const a of words) {
      for (const b of words) {
        const want = Math.sign(icu.compare(unpad(a), unpad(b)));
        if (Math.sign(compareNames(a, b)) !== want) assert.fail(`${JSON.stringify(a)} / ${JSON.stringify(b)}: ICU says ${want}`);
        checked++;
      }
    }
    assert.equal(checked, 585 * 585);
  });

  it('attack5: hyphen, space and digit edge cases sort as ICU sorts them', () => {
    const cases: [string, string][] = [
      ['a-b', 'a b'],
      ['a-b', 'ab'],
      ['a b', 'ab'],
      ['-a', 'a'],
      ['--', '-'],
      [' a', 'a'],
      ['  a', ' a'],
      ['a  b', 'a b'],
      ['a -', 'a-'],
      ['a-', 'a'],
      ['a- ', 'a-'],
      ['10', '2'],
      ['1-0', '10'],
      ['9', 'a'],
      ['-', '0'],
      ['Z', 'a'],
      ['', '-'],
      ['', ' '],
    ];
    for (const [a, b] of cases) {
      assert.equal(Math.sign(compareNames(a, b)), Math.sign(icu.compare(unpad(a), unpad(b))), `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
      assert.equal(Math.sign(compareNames(b, a)), -Math.sign(compareNames(a, b)) || 0, `antisymmetric: ${JSON.stringify(b)} / ${JSON.stringify(a)}`);
    }
  });

  it('attack5: a sort mixing plain names and names that need the collator is one consistent order (sorting any permutation gives the same result)', () => {
    const names = ['a-b', 'a_b', 'a b', 'ab', 'a.b', 'Äb', 'a', 'A ', 'a~', 'a(', '10', '1_0', '1-0', '2', 'é-1', 'e-1', 'E 1', 'z', 'ß', 'ss', '-', '_', ' x', '(x'];
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const key = (list: string[]) => list.map((n) => n.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '')).join('|');
    const reference = key([...names].sort((x, y) => icu.compare(unpad(x), unpad(y)) || (x < y ? -1 : x > y ? 1 : 0)));
    for (let round = 0; round < 200; round++) {
      const shuffled = [...names].sort(() => random() - 0.5);
      const got = key(shuffled.sort((x, y) => compareNames(x, y) || (x < y ? -1 : x > y ? 1 : 0)));
      assert.equal(got, reference, `round ${round}`);
    }
    // Transitivity over every triple: a ≤ b and b ≤ c imply a ≤ c.
    for (const a of names) {
      for (const b of names) {
        for (const c of names) {
          if (compareNames(a, b) <= 0 && compareNames(b, c) <= 0) assert.ok(compareNames(a, c) <= 0, `${a} ≤ ${b} ≤ ${c}`);
        }
      }
    }
  });

  it('attack5: sameName treats case and trailing spaces as one name, but never a hyphen and a space, or leading and inner spaces', () => {
    assert.equal(sameName('Blog Post', 'blog post  '), true);
    assert.equal(sameName('Blog-Post', 'Blog Post'), false);
    assert.equal(sameName('Blog  Post', 'Blog Post'), false);
    assert.equal(sameName(' Blog', 'Blog'), false);
    assert.equal(sameName('Blog-', 'Blog'), false);
    assert.equal(sameName('1', '01'), false);
  });
});

const ID = 7501;
const AT = new Date('2026-06-01T10:00:00Z');

describe('attack5: DocumentService, what a refused answer of the account used before says', () => {
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

  before(async () => {
    sb = await startSandbox({ port: 0, seoPort: 0, rateLimit: 0, seoRateLimit: 0, storeDelayMs: 0 });
    client = createApi({ documentsUrl: sb.docsUrl, projectsUrl: sb.seoUrl, getKey: () => sb.key, timeoutMs: 5000, retries: 0 });
  });

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

  after(async () => {
    client?.dispose();
    await sb?.close();
  });

  const wire = () => new Promise((r) => setTimeout(r, 100));

  it('attack5: signed out, then in with another key before the answer: "the API key or server changed", not "you signed out"', async () => {
    service = make();
    sb.setLatency(400);
    const save = service.saveResult(ID, 'Sent to the first account');
    await wire();
    signOut();
    signInWith('another-key-0123456789');
    await assert.rejects(save, /^Error: The API key or server changed while this change was being sent: it was made in the previous account\.$/);
  });

  it('attack5: signed out, then in with the same key before the answer: the answer is kept', async () => {
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

  it('attack5: signed out while a delete is on the wire: said as a sign-out, and the document was deleted in the account signed out of', async () => {
    service = make();
    sb.setLatency(400);
    const deletion = service.delete(ID);
    await wire();
    signOut();
    await assert.rejects(deletion, /^Error: You signed out while the document was being deleted: it was deleted in the account you signed out of\.$/);
    assert.equal(sb.documents.has(ID), false);
  });

  it('attack5: the documents server address removed (still signed in) while a save is on the wire: not said as a sign-out', async () => {
    service = make();
    sb.setLatency(400);
    const save = service.saveResult(ID, 'Sent before the address was removed');
    await wire();
    url = '';
    serverChanged.fire();
    await assert.rejects(save, /^Error: The API key or server changed while this change was being sent: it was made in the previous account\.$/);
  });

  it('attack5: another server address while a read is on the wire: "the API key or server changed"', async () => {
    service = make();
    sb.setLatency(400);
    const read = service.fetch(ID);
    await wire();
    url = 'http://127.0.0.1:1/other';
    serverChanged.fire();
    await assert.rejects(read, /^Error: The API key or server changed while the document was being read\.$/);
  });

  it('attack5: without an identity, signed out then in again: refused as another key (the accounts cannot be told apart)', async () => {
    service = make(false);
    sb.setLatency(400);
    const rename = service.rename(ID, 'After');
    await wire();
    signOut();
    signInWith(sb.key);
    await assert.rejects(rename, /^Error: The API key or server changed while this change was being sent: it was made in the previous account\.$/);
  });
});

describe('attack5: DocumentRecords when a save ends after its document was forgotten', () => {
  const doc = (id: number, name: string): ContentDocument => ({
    id,
    name,
    template: { id: 1, name: 'Freestyle' },
    result: 'Text',
    resultIsNull: false,
    words: 1,
    favorite: false,
    created_at: '2026-01-01T10:00:00.000000Z',
    updated_at: '2026-01-01T10:00:00.000000Z',
  });
  const uri = (s: string) => ({ toString: () => s });

  it('attack5: the record the end of the save makes again knows no name, URI, read or stat of the forgotten document (as if never seen)', () => {
    const r = new DocumentRecords<{ toString(): string }>();
    const T = 5_000_000;
    r.observe(doc(3, 'Old'), false, T);
    r.track(3, uri('content-docs://3/Freestyle/Old.md'));
    r.statOk(3, T);
    r.setWriting(3, true);
    r.forget(3); // deleted while the save was on the wire
    assert.equal(r.isWriting(3), false, 'a forgotten document is not being written');
    r.setWriting(3, false); // the save's finally
    // A single-document URI of a document with no known names resolves by its id alone (targets.ts checks names' size).
    assert.ok(!r.names(3)?.size, 'no names');
    assert.deepEqual(r.uris(3), []);
    assert.equal(r.reuse(3, 'stat', false, T + 1), undefined);
    assert.equal(r.statRecent(3, T + 1), false);
    assert.equal(r.versions.get(3), undefined);
  });
});
