/**
 * The MCP server's configuration, from its environment: the documents server's address, the projects server's (the
 * same unless given) and the API key. The key is never written anywhere: not in a message, a log line or an answer
 * (a refusal about it says what is wrong, never what it is). An address takes the key only as the extension's do
 * (src/api/client.ts checkBaseUrl): https://, or http:// to this machine only. No `vscode` import.
 *
 * Its problems are read by a person, the user who set the server up wrong (in the host's log of the server's stderr,
 * ./main.ts, and through the model, which is told them on every call): they are a command-line tool's messages, in
 * English, as the server runs outside VS Code, with no VS Code language to follow (checkBaseUrl's l10n.t gives its
 * English sentence there).
 */
import { checkBaseUrl } from '../api/client';
import { isApiError } from '../api/errors';

import { ENV } from './env';

export { ENV } from './env';

/** What the setup command writes in place of a key the user pastes in themselves. */
export const KEY_PLACEHOLDER = 'PASTE-YOUR-CONTENT-DOCS-API-KEY-HERE';

export interface McpConfig {
  readonly documentsUrl: string;
  readonly projectsUrl: string;
  readonly key: string;
}

/** The configuration, or why there is none (every tool then answers that, and nothing is sent). */
export type ConfigResult = { readonly ok: true; readonly config: McpConfig } | { readonly ok: false; readonly problem: string };

function address(raw: string, variable: string, what: string): string {
  try {
    return checkBaseUrl(raw, { label: `${what} (${variable})` });
  } catch (e) {
    if (isApiError(e)) throw new Error(e.message, { cause: e });
    throw e;
  }
}

/** The configuration the environment gives. */
export function readConfig(env: Readonly<Record<string, string | undefined>>): ConfigResult {
  const docs = env[ENV.documentsUrl]?.trim();
  const projects = env[ENV.projectsUrl]?.trim();
  const key = env[ENV.key]?.trim();
  const problems: string[] = [];
  let documentsUrl: string | undefined;
  let projectsUrl: string | undefined;
  if (!docs) problems.push(`${ENV.documentsUrl} is not set: give the address of your Content Docs service (https://writer.example.com).`);
  else {
    try {
      documentsUrl = address(docs, ENV.documentsUrl, 'documents server address');
    } catch (e) {
      problems.push((e as Error).message);
    }
  }
  if (projects) {
    try {
      projectsUrl = address(projects, ENV.projectsUrl, 'projects server address');
    } catch (e) {
      problems.push((e as Error).message);
    }
  } else projectsUrl = documentsUrl;
  if (!key) problems.push(`${ENV.key} is not set: give the API key from your account settings on the service (the API section).`);
  else if (key === KEY_PLACEHOLDER || /^\$\{.*\}$|^<.*>$/.test(key)) {
    problems.push(`${ENV.key} holds a placeholder, not a key: replace it with the API key from your account settings on the service (the API section).`);
  } else if ([...key].some((c) => /\s/.test(c) || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    problems.push(`${ENV.key} contains a space, a line break or a control character, which no API key has: paste the key again.`);
  }
  if (problems.length || !documentsUrl || !projectsUrl || !key) return { ok: false, problem: problems.join(' ') };
  return { ok: true, config: { documentsUrl, projectsUrl, key } };
}

/** A text with every occurrence of the key replaced (log lines and answers: the key never leaves in one). */
export function withoutKey(text: string, key: string | undefined): string {
  return key && key.length >= 4 ? text.split(key).join('[API key]') : text;
}
