/**
 * An account's label follows its documents server and key. One server written two ways — with a trailing slash, the
 * scheme in capitals — is the same server, so the same account: its tabs, view choices and remembered names stay.
 */
import * as assert from 'assert';
import type { TestServices } from '../kit/services';
import { startSandbox, type Sandbox } from '../sandbox/server';
import { configure, services, until, useSandbox } from './reliabilityKit';

describe('account label: one server written two ways is one account', function () {
  this.timeout(30_000);
  let box: Sandbox;
  let s: TestServices;

  before(async () => {
    box = await startSandbox({ rateLimit: 0 });
    s = await services();
    await useSandbox(s, box);
  });

  after(async () => {
    await box?.close();
  });

  it('the server setting given again with a trailing slash keeps the account label (the same tabs stay its own)', async () => {
    await s.registry.settled();
    const label = s.first.label;
    await configure('documents.baseUrl', `${box.docsUrl}/`);
    await until('the settings account made again for the address with a trailing slash', async () => {
      await s.registry.settled();
      return s.firstOrNone?.documentsUrl === `${box.docsUrl}/` ? true : undefined;
    });
    assert.strictEqual(s.first.label, label, 'the same server and key keep their label');
    await configure('documents.baseUrl', box.docsUrl);
  });

  it('the scheme in capitals and trailing slashes give the label of the address as requests use it', async () => {
    const label = await s.credentials.accountLabel(box.docsUrl, box.key);
    const shouted = box.docsUrl.replace('http://', 'HTTP://') + '//';
    assert.ok(label, 'the pair has a label');
    assert.strictEqual(await s.credentials.accountLabel(shouted, box.key, { mint: false }), label);
    assert.notStrictEqual(await s.credentials.accountLabel(box.docsUrl, 'another-key-0123456789', { mint: false }), label);
  });
});
