import vscode = require('vscode');
import { STATE } from '../constants';
import type { Account } from './account';
import type { AccountRegistry } from './registry';
import { isAccountKeyMissing, isAccountRoot, type AccountRootsTree } from '../tree/accountRoots';
import type { DocNode } from '../model/nodes';
import type { LazyDocumentFileSystem } from '../files/lazyFs';
import type { ProjectNode } from '../model/nodes';
import type { Prompter } from '../ui/prompter';

/** What choosing an account takes. */
export type AccountPickNeeds = { readonly state: vscode.Memento; readonly documentsView: AccountRootsTree<DocNode>; readonly fs: LazyDocumentFileSystem; readonly projectsView: AccountRootsTree<ProjectNode>; readonly prompter: Prompter; readonly registry: AccountRegistry };

/** An account's row, with the account as it was when the box opened. */
type AccountItem = vscode.QuickPickItem & { account: Account; name: string };

/** The refusal of an action whose account went while the user chose (removed, signed out, another key or server). */
export function goneWhileChosen(name: string): Error {
  return new Error(
    vscode.l10n.t('The account {0} was removed from VS Code or signed in elsewhere while you chose it: nothing was sent.', name),
  );
}

/**
 * The account an action works in: the one its argument names (a row or root of a view), the only one, or the one the
 * user picks when there are several — the last used first. Undefined when the user pressed Escape. Throws when no
 * account is signed in. The account returned is the value the action holds to its end: every request of the action
 * goes through it, and none is sent once it is gone. Local, no request.
 */
export async function chooseAccount(s: AccountPickNeeds, title: string, arg?: unknown): Promise<Account | undefined> {
  const named = s.documentsView.accountOf(arg) ?? s.projectsView.accountOf(arg);
  if (named) return named;
  // A root or row of an account gone since (removed, signed out, or made anew elsewhere): the action was meant for
  // that account, and is done in no other.
  if (isAccountRoot(arg) || isAccountKeyMissing(arg)) throw goneWhileChosen(arg.account.displayName);
  if (s.documentsView.owns(arg) || s.projectsView.owns(arg)) {
    throw new Error(
      vscode.l10n.t('The account of this row was removed from VS Code or signed in elsewhere since it was listed: nothing was sent.'),
    );
  }
  const all = s.registry.all();
  if (all.length === 0) throw new Error(vscode.l10n.t('You are not signed in to Content Docs: run "Content Docs: Set API Key…" first.'));
  if (all.length === 1) return all[0];
  const last = s.state.get<string>(STATE.lastAccount);
  const ordered = [...all].sort((a, b) => Number(b.label === last) - Number(a.label === last));
  const items: AccountItem[] = ordered.map((a) => ({
    label: `$(account) ${a.displayName}`,
    description: a.label === last ? vscode.l10n.t('last used') : undefined,
    account: a,
    name: a.displayName,
  }));
  const picked = await s.prompter.pick(items, { title, placeHolder: vscode.l10n.t('Which account?') });
  if (!picked) return undefined;
  // Removed while the box was open (Remove Account…, the Accounts menu's Sign Out), or made anew with another server
  // or key: the account picked is gone, and nothing is done in any other.
  if (!s.registry.isLive(picked.account)) throw goneWhileChosen(picked.name);
  await useAccount(s, picked.account);
  return picked.account;
}

/** Remembers the account last worked in (offered first next time). */
export async function useAccount(s: { readonly state: vscode.Memento }, account: Account): Promise<void> {
  await s.state.update(STATE.lastAccount, account.label);
}

/** The account of the document in the active editor, while it is signed in (no request). */
export function activeDocumentAccount(s: { readonly fs: LazyDocumentFileSystem }): Account | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri ? s.fs.documentOf(uri)?.account : undefined;
}

/**
 * The account of an action that asks no question (the @content chat): the active document's, else the one last
 * used, else the first signed in. Undefined when none is. Local, no request.
 */
export function accountInUse(s: AccountPickNeeds): Account | undefined {
  const active = activeDocumentAccount(s);
  if (active) return active;
  const all = s.registry.all();
  const last = s.state.get<string>(STATE.lastAccount);
  return all.find((a) => a.label === last) ?? all[0];
}
