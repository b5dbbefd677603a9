import * as vscode from 'vscode';
import type { ApiProvider } from '../services/apiProvider';
import type { DocumentService } from '../services/documentService';
import { Disposable } from '../util/disposable';
import type { Logger } from '../util/log';

// Placeholder: the file system is being written.
export class DocumentFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly _onDidChangeFile = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this._onDidChangeFile.event;
  constructor(
    readonly documents: DocumentService,
    readonly api: ApiProvider,
    readonly log: Logger,
  ) {
    super();
  }
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  readFile(uri: vscode.Uri): Uint8Array {
    throw vscode.FileSystemError.FileNotFound(uri);
  }
  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
