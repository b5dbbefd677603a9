/** The accounts added with "Add Account…" as kept in globalState (src/accounts/records.ts): never a key, nothing malformed. */
import assert from 'node:assert/strict';
import { MAX_ACCOUNTS, parseRecords, syncedKeys } from '../../src/accounts/records';
import { SECRET_ACCOUNT_KEY_PREFIX, SECRET_ACCOUNT_LABELS, SECRET_KEY, STATE } from '../../src/constants';

describe('account records as kept in globalState', () => {
  it('keeps well-formed records, fills a missing projects address with the documents one, drops the rest', () => {
    const raw = [
      { label: 'abcdefgh', documentsUrl: 'https://a.example', projectsUrl: 'https://seo.a.example', name: 'Ann' },
      { label: 'bcdefghi', documentsUrl: 'https://b.example', projectsUrl: '' },
      { label: 'abcdefgh', documentsUrl: 'https://again.example', projectsUrl: '' }, // a label twice: the first stays
      { label: '1234', documentsUrl: 'https://c.example', projectsUrl: '' }, // not a label
      { label: 'cdefghij', documentsUrl: '', projectsUrl: '' }, // no address
      { label: 'defghijk', documentsUrl: 42, projectsUrl: '' },
      null,
      'abcdefgh',
    ];
    assert.deepEqual(parseRecords(raw), [
      { label: 'abcdefgh', documentsUrl: 'https://a.example', projectsUrl: 'https://seo.a.example', name: 'Ann' },
      { label: 'bcdefghi', documentsUrl: 'https://b.example', projectsUrl: 'https://b.example' },
    ]);
  });

  it('anything that is not a list is no accounts; a list is cut at the most that can be added', () => {
    assert.deepEqual(parseRecords(undefined), []);
    assert.deepEqual(parseRecords({ label: 'abcdefgh' }), []);
    const many = Array.from({ length: MAX_ACCOUNTS + 5 }, (_, i) => ({ label: `a${String(i).padStart(7, '0')}`, documentsUrl: 'https://x.example', projectsUrl: '' }));
    assert.equal(parseRecords(many).length, MAX_ACCOUNTS);
  });

  it('a key a record might carry is never kept (only the label, the addresses and the name)', () => {
    const [r] = parseRecords([{ label: 'abcdefgh', documentsUrl: 'https://a.example', projectsUrl: '', key: 'secret-key', apiKey: 'secret-key' }]);
    assert.ok(!JSON.stringify(r).includes('secret-key'));
  });
});

describe('what Settings Sync carries of globalState', () => {
  it('the added accounts, their names, the writing style and each added account\'s view choices: exactly those keys', () => {
    assert.deepEqual(syncedKeys(['abcdefgh', 'bcdefghi']), [
      'contentDocs.accounts',
      'contentDocs.accountNames',
      'contentDocs.write.style',
      'contentDocs.documentsView.abcdefgh',
      'contentDocs.projectsView.abcdefgh',
      'contentDocs.documentsView.bcdefghi',
      'contentDocs.projectsView.bcdefghi',
    ]);
    assert.deepEqual(syncedKeys([]), ['contentDocs.accounts', 'contentDocs.accountNames', 'contentDocs.write.style']);
  });

  it('never the account last used, the recent templates, a window\'s state, nor any name a key is kept under', () => {
    const keys = syncedKeys(['abcdefgh']);
    for (const local of [STATE.lastAccount, STATE.writeRecentTemplates, STATE.promptDraft, STATE.documentsView, STATE.projectsView]) {
      assert.ok(!keys.includes(local), `${local} stays on this machine`);
    }
    assert.ok(!keys.some((k) => k.startsWith(STATE.accountFolderPaths)), 'the account folder\'s paths are a window\'s');
    for (const secret of [SECRET_KEY, SECRET_ACCOUNT_LABELS, SECRET_ACCOUNT_KEY_PREFIX + 'abcdefgh']) {
      assert.ok(!keys.includes(secret), `${secret} is SecretStorage's, never globalState's`);
    }
  });

  it('a label that is not one (a record made by hand) brings no key', () => {
    assert.deepEqual(syncedKeys(['abcdefgh', '../x', 'ABCDEFGH']).slice(3), ['contentDocs.documentsView.abcdefgh', 'contentDocs.projectsView.abcdefgh']);
  });
});
