import vscode = require('vscode');
import { DOCUMENTS_DRAG_MIME, DOCUMENTS_TREE_MIME, PROMPT_SCHEME, SCHEME, VIEW } from '../constants';
import type { DocNode, ProjectNode } from '../model/nodes';
import type { AccountRootNode } from '../tree/accountRoots';

/**
 * The views' and the file system's providers as registered at activation. The real ones live in dist/core.js,
 * loaded on the first call that needs them (`load`, which builds the services and connects them here), so a
 * window that never opens a view or a document never loads them. They take nothing from the real providers
 * until connected and keep nothing of their own but the forwarding.
 */
export class ForwardingTree<N> implements vscode.TreeDataProvider<N>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<N | N[] | undefined | null | void>();
  readonly onDidChangeTreeData = this.changed.event;
  private target: vscode.TreeDataProvider<N> | undefined;
  private subscription: vscode.Disposable | undefined;

  constructor(private readonly load: () => void) {}

  /** The real provider: from now on its calls and change events are the view's. */
  connect(real: vscode.TreeDataProvider<N>): void {
    this.target = real;
    this.subscription = real.onDidChangeTreeData?.((e) => this.changed.fire(e));
  }

  private get real(): vscode.TreeDataProvider<N> {
    if (!this.target) this.load();
    if (!this.target) throw new Error('The view has no provider.');
    return this.target;
  }

  getChildren(node?: N): vscode.ProviderResult<N[]> {
    return this.real.getChildren(node);
  }
  getTreeItem(node: N): vscode.TreeItem | Thenable<vscode.TreeItem> {
    return this.real.getTreeItem(node);
  }
  getParent(node: N): vscode.ProviderResult<N> {
    return this.real.getParent?.(node);
  }
  resolveTreeItem(item: vscode.TreeItem, node: N, token: vscode.CancellationToken): vscode.ProviderResult<vscode.TreeItem> {
    const real = this.real;
    return real.resolveTreeItem ? real.resolveTreeItem(item, node, token) : item;
  }

  dispose(): void {
    this.subscription?.dispose();
    this.changed.dispose();
  }
}

/**
 * The Documents view's drag and drop as registered at activation (a view takes its controller when it is created):
 * its types are known now; a drag or a drop, which only a view showing rows starts, goes to the real controller.
 */
export function forwardingDragAndDrop<N>(load: () => void, real: () => vscode.TreeDragAndDropController<N> | undefined): vscode.TreeDragAndDropController<N> {
  const controller = () => (real() ?? (load(), real()));
  return {
    dragMimeTypes: ['text/uri-list', 'text/plain', DOCUMENTS_DRAG_MIME],
    dropMimeTypes: [DOCUMENTS_TREE_MIME],
    handleDrag: (source, data, token) => controller()?.handleDrag?.(source, data, token),
    handleDrop: (target, data, token) => controller()?.handleDrop?.(target, data, token),
  };
}

export class ForwardingFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private target: vscode.FileSystemProvider | undefined;
  private subscription: vscode.Disposable | undefined;

  constructor(private readonly load: () => void) {}

  connect(real: vscode.FileSystemProvider): void {
    this.target = real;
    this.subscription = real.onDidChangeFile((e) => this.changed.fire(e));
  }

  private get real(): vscode.FileSystemProvider {
    if (!this.target) this.load();
    if (!this.target) throw new Error('The file system has no provider.');
    return this.target;
  }

  watch(uri: vscode.Uri, options: { readonly recursive: boolean; readonly excludes: readonly string[] }): vscode.Disposable {
    // Changes are pushed for every URI, watched or not (see DocumentFileSystem.watch): nothing to load for a watch.
    return this.target ? this.target.watch(uri, options) : new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat | Thenable<vscode.FileStat> {
    return this.real.stat(uri);
  }
  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] | Thenable<[string, vscode.FileType][]> {
    return this.real.readDirectory(uri);
  }
  createDirectory(uri: vscode.Uri): void | Thenable<void> {
    return this.real.createDirectory(uri);
  }
  readFile(uri: vscode.Uri): Uint8Array | Thenable<Uint8Array> {
    return this.real.readFile(uri);
  }
  writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): void | Thenable<void> {
    return this.real.writeFile(uri, content, options);
  }
  delete(uri: vscode.Uri, options: { readonly recursive: boolean }): void | Thenable<void> {
    return this.real.delete(uri, options);
  }
  rename(oldUri: vscode.Uri, newUri: vscode.Uri, options: { readonly overwrite: boolean }): void | Thenable<void> {
    return this.real.rename(oldUri, newUri, options);
  }

  dispose(): void {
    this.subscription?.dispose();
    this.changed.dispose();
  }
}

/** The views and the file system as activation registers them, and how the services' real providers take them over. */
export interface RegisteredViews {
  readonly documentsTreeView: vscode.TreeView<DocNode | AccountRootNode>;
  readonly projectsTreeView: vscode.TreeView<ProjectNode | AccountRootNode>;
  /** The providers the views were created with (what VS Code asks: the first ask builds the services). */
  readonly providers: { readonly documents: vscode.TreeDataProvider<DocNode | AccountRootNode>; readonly projects: vscode.TreeDataProvider<ProjectNode | AccountRootNode> };
  /** Called once the services are built: their providers answer the views and the file system from then on. */
  connect(real: {
    documentsView: vscode.TreeDataProvider<DocNode | AccountRootNode>;
    projectsView: vscode.TreeDataProvider<ProjectNode | AccountRootNode>;
    fs: vscode.FileSystemProvider;
    documentsDragAndDrop: vscode.TreeDragAndDropController<DocNode | AccountRootNode>;
  }): void;
}

/**
 * Registers the Documents and Projects views and the content-docs file system with forwarding providers: the first
 * call that needs a real one (`load`) builds the services, which connect here. Nothing is built now.
 */
export function registerViews(subscriptions: vscode.Disposable[], load: () => void): RegisteredViews {
  const documents = new ForwardingTree<DocNode | AccountRootNode>(load);
  const projects = new ForwardingTree<ProjectNode | AccountRootNode>(load);
  const files = new ForwardingFileSystem(load);
  let realDragAndDrop: vscode.TreeDragAndDropController<DocNode | AccountRootNode> | undefined;
  const dragAndDrop = forwardingDragAndDrop(load, () => realDragAndDrop);
  // Several rows can be selected: the row commands that take a selection act on each (src/documents/bulk.ts).
  const documentsTreeView = vscode.window.createTreeView(VIEW.documents, { treeDataProvider: documents, canSelectMany: true, dragAndDropController: dragAndDrop });
  const projectsTreeView = vscode.window.createTreeView(VIEW.projects, { treeDataProvider: projects });
  subscriptions.push(
    documents,
    projects,
    files,
    documentsTreeView,
    projectsTreeView,
    vscode.workspace.registerFileSystemProvider(SCHEME, files, { isCaseSensitive: true }),
  );
  return {
    documentsTreeView,
    projectsTreeView,
    providers: { documents, projects },
    connect(real) {
      documents.connect(real.documentsView);
      projects.connect(real.projectsView);
      files.connect(real.fs);
      realDragAndDrop = real.documentsDragAndDrop;
    },
  };
}

/**
 * Registers the file system of New Document's prompt editor (src/files/promptEditor.ts) with a forwarder: VS Code asks
 * for it when a prompt is written in an editor, and when it restores such a tab after a reload or a restart (which
 * activates the extension: `onFileSystem:content-docs-prompt`). `real` loads it on that first call.
 */
export function registerPromptFiles(subscriptions: vscode.Disposable[], real: () => vscode.FileSystemProvider): void {
  const files: ForwardingFileSystem = new ForwardingFileSystem(() => files.connect(real()));
  subscriptions.push(files, vscode.workspace.registerFileSystemProvider(PROMPT_SCHEME, files, { isCaseSensitive: true }));
}
