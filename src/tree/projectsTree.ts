import * as vscode from 'vscode';
import type { Credentials } from '../auth/credentials';
import type { ApiProvider } from '../services/apiProvider';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';

// Placeholder: the Projects view is being written.
export type ProjectNode = { kind: 'placeholder' };

export class ProjectsTreeProvider extends Disposable implements vscode.TreeDataProvider<ProjectNode> {
  constructor(
    readonly api: ApiProvider,
    readonly credentials: Credentials,
    readonly state: vscode.Memento,
    readonly log: Logger,
  ) {
    super();
  }
  attach(view: vscode.TreeView<ProjectNode>): vscode.TreeView<ProjectNode> {
    return view;
  }
  getTreeItem(): vscode.TreeItem {
    return new vscode.TreeItem('…');
  }
  getChildren(): ProjectNode[] {
    return [];
  }
}
