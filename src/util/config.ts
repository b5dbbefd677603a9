import vscode = require('vscode');
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

/** Whether the Documents view reveals the active document's row, as the Explorer does (on by default). */
export function revealActiveDocument(): boolean {
  return section().get<boolean>('documents.revealActive', true) !== false;
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

/** Whether the language-model tools are on (`contentDocs.agents.enabled`, on by default): off, they answer so and send nothing, and @content offers the model none. */
export function agentsEnabled(): boolean {
  return section().get<boolean>('agents.enabled', true) !== false;
}

/** The one-step writing actions' creativity: one of the five levels, else Original (0.5). */
export function writeCreativity(): 0 | 0.25 | 0.5 | 0.75 | 1 {
  const v = section().get<number>('write.creativity', 0.5);
  return ([0, 0.25, 0.5, 0.75, 1] as const).find((c) => c === v) ?? 0.5;
}

/** Whether a writing action asks before it sends (each run creates a document and uses the plan's quota). */
export function writeConfirm(): boolean {
  return section().get<boolean>('write.confirm', true) !== false;
}

/** "Don't Ask Again" on the writing confirmation: off in the user settings, for every workspace. */
export function stopWriteConfirm(): Thenable<void> {
  return section().update('write.confirm', false, vscode.ConfigurationTarget.Global);
}

/** What Discard does with the document the run created: ask (the default), keep it, or delete it. */
export function writeDiscardedDocument(): 'ask' | 'keep' | 'delete' {
  const v = section().get<string>('write.discardedDocument', 'ask');
  return v === 'keep' || v === 'delete' ? v : 'ask';
}
