import vscode = require('vscode');
import type { Account } from '../accounts/account';
import { openDocument, type FilesNeeds } from '../files/commands';
import type { CommandParts } from '../util/commandTypes';
import { CMD } from '../constants';
import { accountGone, documentTargetOf } from './target';

/**
 * Links between VS Code and the product's web app:
 * - Open in Web App and Copy Link: a document's page in the web app, `{documents server}/documents/{id}`, on the
 *   server of the account the row, the editor or the link is in;
 * - the link handler: `vscode://content-docs.content-docs/open?server=<documents server>&id=<id>` (or
 *   `?url=<a web app page of a document>`) opens that document in the signed-in account on that server. A link
 *   carries a server address and an id, never a key: a server with no account signed in here is refused with words
 *   that say so, and nothing is sent; several accounts on that server: the user chooses.
 */
export function linkCommands(s: FilesNeeds) {
  return {
    [CMD.documentOpenInWebApp]: (arg: unknown) => openInWebApp(s, arg),
    [CMD.documentCopyLink]: (arg: unknown) => copyLink(s, arg),
  } satisfies CommandParts;
}

/** A server address as accounts are compared by it: the scheme and host as the URL parser writes them, no final "/". */
export function serverKey(address: string): string | undefined {
  try {
    const u = new URL(address.trim());
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return undefined;
  }
}

/** A document's page in the product's web app: `{documents server}/documents/{id}`. */
export function webAppAddress(account: Account, id: number): string {
  const url = new URL(account.documentsUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/documents/${id}`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

function addressOf(s: FilesNeeds, arg: unknown): string {
  const target = documentTargetOf(s, arg);
  if (target === undefined) {
    throw accountGone(s, arg) ?? new Error(vscode.l10n.t('There is no document to link to: choose one in the Documents view, or run this from an open document.'));
  }
  return webAppAddress(target.account, target.id);
}

/** Open in Web App: the document's page in the browser. Returns the address opened. */
export async function openInWebApp(s: FilesNeeds, arg: unknown): Promise<string> {
  const address = addressOf(s, arg);
  // Handed over as the string itself, as Open in Browser does for projects (a vscode.Uri would be re-encoded).
  await vscode.env.openExternal(address as unknown as vscode.Uri);
  return address;
}

/** Copy Link: the document's page in the web app, to the clipboard. */
export async function copyLink(s: FilesNeeds, arg: unknown): Promise<string> {
  const address = addressOf(s, arg);
  await vscode.env.clipboard.writeText(address);
  vscode.window.setStatusBarMessage(vscode.l10n.t('$(link) Copied the link {0}', address), 3000);
  return address;
}

/** What a link names: a documents server and a document id (undefined: not a link of ours, or a malformed one). */
export function parseLink(uri: vscode.Uri): { server: string; id: number } | undefined {
  if (uri.path.replace(/\/+$/, '') !== '/open') return undefined;
  const query = new URLSearchParams(uri.query);
  const page = query.get('url');
  if (page) {
    const m = /^(.*)\/documents\/([1-9]\d{0,15})\/?$/.exec(page.trim().replace(/[?#].*$/, ''));
    const server = m ? serverKey(m[1]) : undefined;
    return m && server ? { server, id: Number(m[2]) } : undefined;
  }
  const server = serverKey(query.get('server') ?? '');
  const idText = query.get('id') ?? '';
  if (!server || !/^[1-9]\d{0,15}$/.test(idText) || !Number.isSafeInteger(Number(idText))) return undefined;
  return { server, id: Number(idText) };
}

/**
 * The link handler: opens the linked document in the signed-in account on the link's server. Returns the editor, or
 * undefined (after saying why) when the link is malformed, no account signed in here is on that server, or the user
 * chose none of several.
 */
export async function openLink(s: FilesNeeds, uri: vscode.Uri): Promise<vscode.TextEditor | undefined> {
  const link = parseLink(uri);
  if (!link) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('This Content Docs link is not one it can open: it names no documents server and document id. Nothing was sent.'),
    );
    return undefined;
  }
  // A link may be what activated the extension and built its services: the account of a key stored earlier is made
  // now (its label read from SecretStorage), and a link of its server must find it.
  await s.registry.settled();
  const accounts = s.registry.all().filter((a) => serverKey(a.documentsUrl) === link.server);
  if (accounts.length === 0) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t(
        'No account signed in here is on {0}, so document {1} of that server was not opened and nothing was sent. Add an account of that server with "Add Account…", then open the link again.',
        link.server,
        link.id,
      ),
    );
    return undefined;
  }
  let account: Account | undefined = accounts[0];
  if (accounts.length > 1) {
    const picked = await s.prompter.pick(
      accounts.map((a) => ({
        label: a.displayName,
        description: a.origin === 'settings' ? vscode.l10n.t('the account of "Set API Key…"') : vscode.l10n.t('added with "Add Account…"'),
        account: a,
      })),
      { title: vscode.l10n.t('Open Document {0}', link.id), placeHolder: vscode.l10n.t('Several accounts signed in here are on {0}: which one is the document in?', link.server) },
    );
    account = picked?.account;
  }
  if (!account) return undefined;
  // The account chosen went while the question was open (signed out, removed, another key or server): not opened in
  // another account of that server.
  if (!s.registry.isLive(account)) {
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Document {0} of {1} was not opened. {2} Open the link again to choose among the accounts signed in now.', link.id, link.server, account.goneMessage()),
    );
    return undefined;
  }
  return openDocument(s, { id: link.id, account: account.label }, { preview: false });
}
