/**
 * Where the compiler holds every read or change of a document, project or plan to its account: the window's
 * services (src/core.ts) and what each feature's commands take (src/commands/table.ts) hold no document, project or
 * usage service, and no "current account"; the only way to one is an Account (`account.documents`, `.projects`,
 * `.usage`), which a command gets from the row, the URI's label, the pick or the confirmation. Each `@ts-expect-error`
 * below is a compile error today: should one of them compile (a service or a default account reachable without an
 * account), `tsc -p tsconfig.test.json` fails on the unused directive, and with it the build of the tests.
 */
import assert from 'node:assert/strict';
import type { Account } from '../../src/accounts/account';
import type { AccountRegistry } from '../../src/accounts/registry';
import type { CommandServices } from '../../src/commands/table';
import type { Core } from '../../src/core';
import type { DocumentService } from '../../src/documents/documentService';

/** Whether T has the key K (checked by the compiler). */
type Has<T, K extends PropertyKey> = K extends keyof T ? true : false;

// The window's services and the commands' needs: no service of an account, no account by default.
const coreHasNoDocuments: Has<Core, 'documents'> = false;
const coreHasNoUsage: Has<Core, 'account'> = false;
const coreHasNoApi: Has<Core, 'api'> = false;
const commandsHaveNoDocuments: Has<CommandServices, 'documents'> = false;
const commandsHaveNoProjects: Has<CommandServices, 'projects'> = false;
// The registry has no "first", "primary" or "current" account: only the accounts signed in, as values.
const noPrimary: Has<AccountRegistry, 'primary'> = false;
const noCurrent: Has<AccountRegistry, 'current'> = false;
// A document service takes no account argument and has no account of its own to default to: it is one account's.
const noGeneration: Has<DocumentService, 'generation'> = false;
const noCurrentAccount: Has<DocumentService, 'currentAccount'> = false;

/** A read through the window's services alone does not compile: it must name its account. */
export function readWithoutAccount(s: CommandServices): unknown {
  // @ts-expect-error: the commands' services hold no document service (an account's `documents` is the way).
  return s.documents.fetch(1);
}

/** The same read, through the account chosen, compiles. */
export function readInAccount(account: Account): Promise<unknown> {
  return account.documents.fetch(1);
}

/** Deleting with an account argument next to an id (the old "forAccount?" that callers could forget) does not compile. */
export function deleteWithLabel(account: Account): Promise<void> {
  // @ts-expect-error: delete takes the id alone; the account is the service's own.
  return account.documents.delete(1, 'label');
}

describe('every read or change of a document names its account (the compiler holds it)', () => {
  it('the window\'s services and the commands\' needs hold no service of an account, the registry no default account', () => {
    assert.deepEqual(
      [coreHasNoDocuments, coreHasNoUsage, coreHasNoApi, commandsHaveNoDocuments, commandsHaveNoProjects, noPrimary, noCurrent, noGeneration, noCurrentAccount],
      [false, false, false, false, false, false, false, false, false],
    );
  });

  it('a read without an account is a compile error, through the account it compiles (see this file\'s @ts-expect-error lines)', () => {
    assert.equal(typeof readWithoutAccount, 'function');
    assert.equal(typeof readInAccount, 'function');
    assert.equal(typeof deleteWithLabel, 'function');
  });
});
