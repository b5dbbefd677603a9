/** What the API client takes from its host in a browser's web worker (vscode.dev, github.dev): the platform's fetch. See ./platform.ts. */
import { FetchTransport } from './fetchTransport';
import type { Transport } from './transport';
import { l10n } from '../util/l10n';

export const HOST: 'node' | 'browser' = 'browser';

export function defaultTransport(_dispatcher?: unknown): Transport {
  return new FetchTransport();
}

/** What the refusal of an http:// address adds in the browser. */
export function insecureHttpNote(): string {
  return ` ${l10n.t('In the browser, an https:// page such as vscode.dev cannot call an http:// server of another machine at all (the browser blocks it as mixed content).')}`;
}
