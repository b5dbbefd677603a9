/**
 * The benchmark's reference extension (test/bench/bench.ts loads it beside Content Docs in the same fresh starts):
 * what a lean extension with one view costs, to state Content Docs' startup figures as ratios to it. It does what
 * such an extension must do at activation and no more: one command, one tree view with its data provider. Its view
 * shows ROWS rows, built when the view first asks (about as many as Content Docs' two views show at their first
 * open against the benchmark's sandbox: 91), each with what a real row has (label, description, tooltip, icon,
 * context value, a command).
 *
 * Plain JavaScript, no build: the file VS Code requires is this one.
 */
const vscode = require('vscode');

const ROWS = 90;

class Items {
  constructor() {
    this.changed = new vscode.EventEmitter();
    this.onDidChangeTreeData = this.changed.event;
    this.version = 0;
  }

  refresh() {
    this.version++;
    this.changed.fire(undefined);
  }

  getChildren(row) {
    if (row) return [];
    const rows = [];
    for (let i = 1; i <= ROWS; i++) rows.push({ id: i, label: `Item ${i}`, detail: `version ${this.version}` });
    return rows;
  }

  getTreeItem(row) {
    const item = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
    item.id = `item-${row.id}`;
    item.description = row.detail;
    item.tooltip = `${row.label} (${row.detail})`;
    item.iconPath = new vscode.ThemeIcon('file');
    item.contextValue = 'item';
    item.command = { command: 'benchReference.refresh', title: 'Refresh' };
    return item;
  }
}

exports.activate = (context) => {
  const items = new Items();
  context.subscriptions.push(
    vscode.window.createTreeView('benchReference.items', { treeDataProvider: items }),
    vscode.commands.registerCommand('benchReference.refresh', () => items.refresh()),
  );
  // For the benchmark: the provider (its first open is timed as Content Docs' is) and where the host logs.
  return { items, logUri: context.logUri };
};

exports.deactivate = () => undefined;
