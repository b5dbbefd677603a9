/**
 * An account that went (signed out, removed, or made anew by another key or server) is let go: nothing of the window
 * keeps it, nor what it read (its documents, pages, trees), in memory. A window whose settings change often (Settings
 * Sync, another window's Set API Key…) makes a new account each time; each old one must become garbage.
 */
import * as assert from 'assert';
import * as v8 from 'v8';
import * as vm from 'vm';
import { startSandbox, type Sandbox } from '../sandbox/server';
import type { TestServices } from '../kit/services';
import { accountAnew, services, sleep, useSandbox } from './reliabilityKit';

/** V8's collector, as `--expose-gc` gives it. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

describe('accounts that went are let go (memory)', function () {
  this.timeout(60_000);
  let sandbox: Sandbox;
  let s: TestServices;

  before(async () => {
    sandbox = await startSandbox({ rateLimit: 0, storeDelayMs: 0 });
    s = await services();
    await useSandbox(s, sandbox);
  });

  after(async () => {
    await sandbox.close();
  });

  it('an account made anew is garbage once it went, after its Documents view was shown and its plan usage read', async () => {
    const gc = collector();
    // The account is used as a user uses it: its rows listed, its plan usage read (the status bar follows it).
    await s.documentsView.getChildren();
    await s.first.usage.get();
    const ref = new WeakRef(s.first);
    // Made anew twice (another server address, then the first again): each time the previous account goes.
    await accountAnew(s);
    await s.documentsView.getChildren();
    await accountAnew(s);
    await s.documentsView.getChildren();
    await s.first.usage.get();
    for (let i = 0; i < 10 && ref.deref() !== undefined; i++) {
      await sleep(100);
      gc();
    }
    assert.strictEqual(ref.deref(), undefined, 'the account that went is still held in memory (with everything it read)');
  });
});
