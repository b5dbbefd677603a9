import * as vscode from 'vscode';
import { CONFIG } from '../constants';

export type PageSize = 10 | 25 | 50 | 100;
export type DocumentSortSetting = 'newest' | 'oldest' | 'nameAsc' | 'nameDesc';
const PAGE_SIZES: readonly number[] = [10, 25, 50, 100];

function section(): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(CONFIG);
}

/**
 * The server addresses are application-scoped: read only the user (global) value so that a workspace
 * or folder setting can never redirect the key, even on a VS Code that ignores the scope.
 */
function userOnly(key: string): string {
  const inspected = section().inspect<string>(key);
  return (inspected?.globalValue ?? inspected?.defaultValue ?? '').trim();
}

export function documentsBaseUrl(): string {
  return userOnly('documents.baseUrl');
}

export function projectsBaseUrl(): string {
  return userOnly('projects.baseUrl') || documentsBaseUrl();
}

function pageSize(key: string): PageSize {
  const v = section().get<number>(key, 50);
  return (PAGE_SIZES.includes(v) ? v : 50) as PageSize;
}

export function documentsPageSize(): PageSize {
  return pageSize('documents.pageSize');
}

export function projectsPageSize(): PageSize {
  return pageSize('projects.pageSize');
}

export function defaultDocumentSort(): DocumentSortSetting {
  const v = section().get<string>('documents.defaultSort', 'newest');
  return (['newest', 'oldest', 'nameAsc', 'nameDesc'].includes(v) ? v : 'newest') as DocumentSortSetting;
}

export function hideEmptyTemplates(): boolean {
  return section().get<boolean>('documents.hideEmptyTemplates', false) === true;
}

export function fileLanguage(): 'markdown' | 'plaintext' {
  return section().get<string>('files.language', 'markdown') === 'plaintext' ? 'plaintext' : 'markdown';
}

export function timeoutMs(): number {
  const inspected = section().inspect<number>('network.timeoutSeconds');
  const v = Number(inspected?.globalValue ?? inspected?.defaultValue ?? 30);
  // Out of range is clamped (0 waits the minimum, 5 s); only a value that is not a number falls back to 30 s.
  return Math.min(300, Math.max(5, Number.isFinite(v) ? v : 30)) * 1000;
}

export function affects(e: vscode.ConfigurationChangeEvent, key: string): boolean {
  return e.affectsConfiguration(`${CONFIG}.${key}`);
}
