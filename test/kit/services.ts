/**
 * The extension's services as the tests drive them: the window's services (src/core.ts) and, for the suites that work
 * in the account of "Set API Key…" and the user settings, that account as it is at the moment of reading. A test that
 * changes the key or the server reads them again and gets the new account; one that holds on to them holds the old
 * account, which refuses everything once it is gone (as the product's own actions do). No Node imports: the web tier
 * uses it too.
 */
import type { Account } from '../../src/accounts/account';
import type { ApiProvider } from '../../src/accounts/apiProvider';

import type { Core } from '../../src/core';
import type { DocumentService } from '../../src/documents/documentService';
import type { DocumentsTreeProvider } from '../../src/documents/documentsTree';
import type { ProjectsTreeProvider } from '../../src/projects/projectsTree';
import type { AccountService } from '../../src/usage/accountService';

export interface TestServices extends Core {
  /** The account of "Set API Key…" and the user settings now (throws when none is signed in). */
  readonly first: Account;
  /** The account of the settings now, if one is signed in. */
  readonly firstOrNone: Account | undefined;
  /** Its document service. */
  readonly documents: DocumentService;
  /** Its Documents tree. */
  readonly documentsTree: DocumentsTreeProvider;
  /** Its Projects tree. */
  readonly projectsTree: ProjectsTreeProvider;
  /** Its plan usage (GET /account). */
  readonly account: AccountService;
  /** Its API client. */
  readonly api: ApiProvider;
}

/** The settings' account among those signed in (undefined: none). */
export function settingsAccount(core: Core): Account | undefined {
  return core.registry.all().find((a) => a.origin === 'settings');
}

/** `core` with the settings' account's parts, each read when asked for (see TestServices). */
export function testServices(core: Core): TestServices {
  const first = (): Account => {
    const a = settingsAccount(core);
    if (!a) throw new Error('no account of "Set API Key…" is signed in');
    return a;
  };
  const out = Object.create(core) as TestServices;
  Object.defineProperties(out, {
    first: { get: first },
    firstOrNone: { get: () => settingsAccount(core) },
    documents: { get: () => first().documents },
    documentsTree: { get: () => core.documentsView.treeOf(first()) as DocumentsTreeProvider },
    projectsTree: { get: () => core.projectsView.treeOf(first()) as ProjectsTreeProvider },
    account: { get: () => first().usage },
    api: { get: () => first().api },
  });
  return out;
}
