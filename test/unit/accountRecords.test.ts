/** The accounts added with "Add Account…" as kept in globalState (src/accounts/records.ts): never a key, nothing malformed. */
import assert from 'node:assert/strict';
import { MAX_ACCOUNTS, parseRecords } from '../../src/accounts/records';

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
