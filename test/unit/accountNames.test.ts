/**
 * What the Accounts menu shows for an account and the names remembered for it (src/accounts/accountNames.ts,
 * vscode-free), and the manifest's authentication provider being the one the code registers.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { displayLabel, hostOf, MAX_REMEMBERED, parseRemembered, remember, rememberedName, type RememberedName } from '../../src/accounts/accountNames';
import { AUTH_PROVIDER } from '../../src/constants';

describe('Accounts menu: labels and remembered names (vscode-free)', () => {
  it('the host of a server address keeps its port and drops scheme, path and credentials', () => {
    assert.equal(hostOf('https://writer.example.com'), 'writer.example.com');
    assert.equal(hostOf('https://writer.example.com/app/'), 'writer.example.com');
    assert.equal(hostOf('http://127.0.0.1:4173'), '127.0.0.1:4173');
    assert.equal(hostOf('https://user:pw@writer.example.com:8443/x'), 'writer.example.com:8443');
    assert.equal(hostOf('not an address'), 'not an address');
  });

  it('"name @ host", or the host alone while no name is known (blank names count as none)', () => {
    assert.equal(displayLabel('writer.example.com', 'Ada Lovelace'), 'Ada Lovelace @ writer.example.com');
    assert.equal(displayLabel('writer.example.com', '  Ada \n Lovelace '), 'Ada Lovelace @ writer.example.com');
    assert.equal(displayLabel('writer.example.com', undefined), 'writer.example.com');
    assert.equal(displayLabel('writer.example.com', ' \t'), 'writer.example.com');
  });

  it('a name is remembered per account label and host, the most recent first, the oldest dropped beyond the limit', () => {
    const a: RememberedName = { label: 'aaaaaaaa', name: 'Ada', host: 'one.example' };
    let list = remember([], a)!;
    assert.deepEqual(list, [a]);
    assert.equal(remember(list, { ...a }), undefined, 'the same again: nothing to store');
    assert.equal(rememberedName(list, 'aaaaaaaa', 'one.example'), 'Ada');
    assert.equal(rememberedName(list, 'aaaaaaaa', 'two.example'), undefined, 'not on another host');
    assert.equal(rememberedName(list, 'bbbbbbbb', 'one.example'), undefined, 'not for another account');

    list = remember(list, { label: 'bbbbbbbb', name: 'Bob', host: 'one.example' })!;
    list = remember(list, { label: 'aaaaaaaa', name: 'Ada L.', host: 'one.example' })!;
    assert.deepEqual(list.map((e) => `${e.label}=${e.name}`), ['aaaaaaaa=Ada L.', 'bbbbbbbb=Bob'], 'one entry per account, the newest name first');

    for (let i = 0; i < MAX_REMEMBERED + 5; i++) list = remember(list, { label: `c${String(i).padStart(7, '0')}`, name: `N${i}`, host: 'h' })!;
    assert.equal(list.length, MAX_REMEMBERED);
    assert.equal(list[0].name, `N${MAX_REMEMBERED + 4}`);
  });

  it('what globalState holds is read defensively: anything malformed is left out', () => {
    assert.deepEqual(parseRemembered(undefined), []);
    assert.deepEqual(parseRemembered('x'), []);
    assert.deepEqual(parseRemembered([null, 1, { label: 'a', name: 'n' }, { label: 'a', name: 'n', host: 'h' }]), [{ label: 'a', name: 'n', host: 'h' }]);
  });

  it('the manifest contributes the authentication provider the code registers', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { authentication?: Array<{ id: string; label: string }> };
    };
    assert.deepEqual(pkg.contributes.authentication?.map((a) => a.id), [AUTH_PROVIDER.id]);
  });
});
