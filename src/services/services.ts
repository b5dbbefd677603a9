import type * as vscode from 'vscode';
import type { AccountsMenu } from '../accounts/accountsMenu';
import type { Credentials } from '../accounts/credentials';
import type { Logger } from '../util/log';
import type { SwitchablePrompter } from '../ui/prompter';
import type { ApiProvider } from '../accounts/apiProvider';
import type { DocumentService } from '../documents/documentService';
import type { AccountService } from '../usage/accountService';
import type { UsageStatus } from '../usage/usageStatus';
import type { SaveStatus } from '../files/saveStatus';
import type { DocumentsTreeProvider } from '../documents/documentsTree';
import type { ProjectsTreeProvider } from '../projects/projectsTree';
import type { LazyDocumentFileSystem } from '../files/lazyFs';
import type { ProposalContent } from '../write/proposalContent';
import type { AccountRegistry } from '../accounts/registry';
import type { AccountRootsTree } from '../tree/accountRoots';
import type { DocNode } from '../model/nodes';
import type { ProjectNode } from '../model/nodes';

/** Everything the commands and views share, built once when first needed (src/core.ts) and passed explicitly. */
export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly log: Logger;
  readonly credentials: Credentials;
  /** The account in VS Code's Accounts menu (an authentication provider). */
  readonly accounts: AccountsMenu;
  readonly api: ApiProvider;
  /** Every account: the first (whose services are `api`, `documents`, `account`) and those added with "Add Account…". */
  readonly registry: AccountRegistry;
  /** The first account's document service. */
  readonly documents: DocumentService;
  readonly account: AccountService;
  readonly usage: UsageStatus;
  /** Whether the active document's text reached the server (the status bar's "Saving…" / "Saved"). */
  readonly saveStatus: SaveStatus;
  readonly prompter: SwitchablePrompter;
  /** The first account's Documents tree (with several accounts, its root's content). */
  readonly documentsTree: DocumentsTreeProvider;
  readonly projectsTree: ProjectsTreeProvider;
  /** The Documents view: every account's tree (a root per account when there are several). */
  readonly documentsView: AccountRootsTree<DocNode>;
  readonly projectsView: AccountRootsTree<ProjectNode>;
  readonly fs: LazyDocumentFileSystem;
  /** The text of proposal documents (the writing actions' diffs), registered at activation. */
  readonly proposalContent: ProposalContent;
}
