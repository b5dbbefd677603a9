import * as vscode from 'vscode';
import type { Credentials } from '../auth/credentials';
import type { ApiProvider } from '../services/apiProvider';
import type { DocumentService } from '../services/documentService';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';

// Placeholder: the Documents view is being written.
export type DocNode = { kind: 'placeholder' };

export class DocumentsTreeProvider extends Disposable implements vscode.TreeDataProvider<DocNode> {
  constructor(
    readonly documents: DocumentService,
    readonly api: ApiProvider,
    readonly credentials: Credentials,
    readonly state: vscode.Memento,
    readonly log: Logger,
  ) {
    super();
  }
  attach(view: vscode.TreeView<DocNode>): vscode.TreeView<DocNode> {
    return view;
  }
  getTreeItem(): vscode.TreeItem {
    return new vscode.TreeItem('…');
  }
  getChildren(): DocNode[] {
    return [];
  }
}
