import vscode = require('vscode');
import type { ContentDocument } from '../../api/index';
import { templateName } from '../../api/templates';
import type { Account } from '../../accounts/account';
import { accountInUse, useAccount } from '../../accounts/pick';
import { CHAT, CMD, PROPOSAL_SCHEME } from '../../constants';
import { usageRows } from '../../model/usageFormat';
import { fromNow, md, parseDate, words } from '../../tree/format';
import * as config from '../../util/config';
import { describeError, isCancellation, reason } from '../../util/errors';
import { writerFor } from '../../write/commands';
import type { AccountPickNeeds } from '../../accounts/pick';
import type { WriteNeeds } from '../../write/commands';

/** What @content takes. */
export type ChatNeeds = AccountPickNeeds & WriteNeeds;

/**
 * The @content chat participant's answers (dist/commands.js: loaded on the first request, see src/agents/chat/participant.ts):
 *
 *   /search <words>   the documents whose name holds the words, each a link that opens it (one list request)
 *   /usage            the plan usage, in the words of the status bar's Show Plan Usage
 *   /write <request>  the service writes into the active editor: the proposal diff of Rewrite Selection
 *   anything else     the user's chosen model answers, calling the Content Docs tools (vscode.lm.tools)
 *
 * /search, /usage and /write work in the account of the active document, else the one last used (no question in
 * a chat); with several accounts every answer names it.
 */

/** What an answer leaves in the chat's result (VS Code keeps it with the turn). */
export interface ChatAnswerMetadata {
  readonly command: string;
  readonly account?: string;
  /** /search: how many documents were listed. */
  readonly documents?: number;
  /** The model's tool calls, by name, in order. */
  readonly toolCalls?: readonly string[];
  readonly cancelled?: boolean;
}

/** The most rounds of tool calls one question may take before the answer stops. */
export const MAX_TOOL_ROUNDS = 8;
/** The most documents /search lists. */
const SEARCH_LIMIT = 25;

const INSTRUCTIONS = [
  'You are Content Docs in VS Code: you help a writer with the documents of their account on an AI content service',
  '(documents written from templates, grouped in projects; a monthly plan of words and documents).',
  'Use the contentDocs_ tools to search, read, create, change or delete documents and projects and to read the plan usage;',
  'never make up documents, ids or figures. VS Code asks the user before a tool creates, changes or deletes anything.',
  'Answer briefly, in Markdown.',
].join(' ');

export async function answerChat(
  s: ChatNeeds,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const command = request.command ?? 'ask';
  try {
    if (!(await signedIn(s))) {
      stream.markdown(vscode.l10n.t('You are not signed in to Content Docs. Sign in with your API key, then ask again.'));
      stream.button({ command: CMD.signIn, title: vscode.l10n.t('Sign In') });
      return { metadata: { command } satisfies ChatAnswerMetadata };
    }
    switch (request.command) {
      case 'search':
        return await search(s, request.prompt, stream, token);
      case 'usage':
        return await usage(s, stream);
      case 'write':
        return await write(s, request.prompt, stream);
      default:
        return await ask(s, request, context, stream, token);
    }
  } catch (e) {
    if (token.isCancellationRequested || isCancellation(e)) return { metadata: { command, cancelled: true } satisfies ChatAnswerMetadata };
    const message = describeError(vscode.l10n.t("Couldn't answer"), e);
    s.log.warn(`[chat] ${message}`);
    return { errorDetails: { message }, metadata: { command } satisfies ChatAnswerMetadata };
  }
}

async function signedIn(s: ChatNeeds): Promise<boolean> {
  await s.registry.settled();
  return s.registry.all().length > 0;
}

/** The account an answer works in (see accountInUse): there is one, as the caller checked it is signed in. */
function accountOf(s: ChatNeeds): Account {
  const account = accountInUse(s);
  if (!account) throw new Error(vscode.l10n.t('You are not signed in to Content Docs: run "Content Docs: Set API Key…" first.'));
  return account;
}

/** "Name @ host: " before an answer when there are several accounts (whose documents or figures these are). */
function whose(s: ChatNeeds, account: Account): string {
  return s.registry.several ? vscode.l10n.t('In **{0}**: ', md(account.displayName)) : '';
}

function trusted(value: string, commands: readonly string[]): vscode.MarkdownString {
  const m = new vscode.MarkdownString(value);
  m.isTrusted = { enabledCommands: [...commands] };
  return m;
}

// --- /search -------------------------------------------------------------------------------------------------

async function search(s: ChatNeeds, prompt: string, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
  const text = prompt.trim();
  if (!text) {
    stream.markdown(vscode.l10n.t('Say what to look for, for example `/search coffee`: the documents whose name holds those words are listed.'));
    return { metadata: { command: 'search' } satisfies ChatAnswerMetadata };
  }
  const account = accountOf(s);
  stream.progress(vscode.l10n.t('Searching the documents…'));
  const controller = new AbortController();
  const sub = token.onCancellationRequested(() => controller.abort());
  let items: readonly ContentDocument[];
  let more: boolean;
  try {
    const page = await account.documents.list({ search: text, perPage: SEARCH_LIMIT }, controller.signal);
    items = page.items;
    more = page.hasMore;
  } finally {
    sub.dispose();
  }
  await useAccount(s, account);
  const label = account.label;
  if (!items.length) {
    stream.markdown(`${whose(s, account)}${vscode.l10n.t('No document name contains "{0}".', md(text))}`);
    return { metadata: { command: 'search', account: label, documents: 0 } satisfies ChatAnswerMetadata };
  }
  const head =
    items.length === 1 ? vscode.l10n.t('1 document whose name contains "{0}":', md(text)) : vscode.l10n.t('{0} documents whose names contain "{1}":', items.length, md(text));
  const lines = items.map((d) => {
    const args = encodeURIComponent(JSON.stringify({ id: d.id, account: label }));
    const updated = parseDate(d.updated_at);
    const details = [templateName(d.template?.id, d.template?.name), words(d.words), updated ? fromNow(updated) : undefined].filter(Boolean).join(' · ');
    return `- [${md(d.name || vscode.l10n.t('(no name)'))}](command:${CMD.documentOpen}?${args} "${vscode.l10n.t('Open')}")${d.favorite ? ' ★' : ''} — ${md(details)}`;
  });
  const tail = more ? `\n\n${vscode.l10n.t('The first {0} are listed: add words to narrow the search, or use Go to Document….', SEARCH_LIMIT)}` : '';
  stream.markdown(trusted(`${whose(s, account)}${head}\n\n${lines.join('\n')}${tail}`, [CMD.documentOpen]));
  return { metadata: { command: 'search', account: label, documents: items.length } satisfies ChatAnswerMetadata };
}

// --- /usage --------------------------------------------------------------------------------------------------

async function usage(s: ChatNeeds, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const account = accountOf(s);
  stream.progress(vscode.l10n.t('Reading the plan usage…'));
  const info = account.usage.cached ?? (await account.usage.get());
  const rows = usageRows(info);
  const body = rows.length ? rows.map((r) => `- ${md(r.label)}: ${md(r.description ?? '')}`).join('\n') : md(vscode.l10n.t('The server did not say how much of the plan is used.'));
  stream.markdown(`${whose(s, account)}${vscode.l10n.t('Plan usage, this month against your plan:')}\n\n${body}`);
  stream.button({ command: CMD.usageShow, title: vscode.l10n.t('Show Plan Usage') });
  return { metadata: { command: 'usage', account: account.label } satisfies ChatAnswerMetadata };
}

// --- /write --------------------------------------------------------------------------------------------------

async function write(s: ChatNeeds, prompt: string, stream: vscode.ChatResponseStream): Promise<vscode.ChatResult> {
  const request = prompt.trim();
  if (!request) {
    stream.markdown(vscode.l10n.t('Say what to write, for example `/write a short intro about our new grinder`. It goes into the active editor at the cursor, or works on the selected text.'));
    return { metadata: { command: 'write' } satisfies ChatAnswerMetadata };
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.scheme === PROPOSAL_SCHEME) {
    stream.markdown(vscode.l10n.t('There is no editor to write in. Open a file, put the cursor where the text should go (or select text to work on), then ask again.'));
    return { metadata: { command: 'write' } satisfies ChatAnswerMetadata };
  }
  const account = accountOf(s);
  stream.progress(vscode.l10n.t('The service is writing…'));
  const result = await writerFor(s).writeFromRequest(request, account);
  const label = account.label;
  if (!result) {
    stream.markdown(vscode.l10n.t('Nothing was written into the editor.'));
    return { metadata: { command: 'write', account: label } satisfies ChatAnswerMetadata };
  }
  if (!result.proposal) {
    stream.markdown(vscode.l10n.t('"{0}" was created, but the service wrote no text: nothing to propose. Your text is unchanged.', md(result.document.name)));
    return { metadata: { command: 'write', account: label } satisfies ChatAnswerMetadata };
  }
  const p = result.proposal;
  stream.markdown(
    `${whose(s, account)}${vscode.l10n.t('The proposal is open beside your text as a diff, from the document "{0}". Review it, then accept or discard it.', md(p.documentName))}`,
  );
  stream.button({ command: CMD.proposalAccept, arguments: [p.uri.toString()], title: vscode.l10n.t('Accept') });
  stream.button({ command: CMD.proposalDiscard, arguments: [p.uri.toString()], title: vscode.l10n.t('Discard') });
  return { metadata: { command: 'write', account: label } satisfies ChatAnswerMetadata };
}

// --- A question for the model ---------------------------------------------------------------------------------

/** The earlier turns of this participant in the conversation, as the model's messages. */
function historyOf(context: vscode.ChatContext): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  for (const turn of context.history) {
    if (turn.participant !== CHAT.participant) continue;
    if (turn instanceof vscode.ChatRequestTurn) {
      out.push(vscode.LanguageModelChatMessage.User(turn.command ? `/${turn.command} ${turn.prompt}` : turn.prompt));
    } else if (turn instanceof vscode.ChatResponseTurn) {
      const text = turn.response
        .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
        .join('')
        .trim();
      if (text) out.push(vscode.LanguageModelChatMessage.Assistant(text));
    }
  }
  return out;
}

/** A model's refusal in the user's words. */
function modelError(e: vscode.LanguageModelError, model: vscode.LanguageModelChat): Error {
  const name = model.name || model.id;
  if (e.code === vscode.LanguageModelError.NoPermissions.name) {
    return new Error(vscode.l10n.t('Content Docs may not use the model "{0}": allow it when VS Code asks, or pick another model.', name));
  }
  if (e.code === vscode.LanguageModelError.Blocked.name) return new Error(vscode.l10n.t('The model "{0}" refused the request: {1}', name, e.message));
  if (e.code === vscode.LanguageModelError.NotFound.name) return new Error(vscode.l10n.t('The model "{0}" is not available any more: pick another model.', name));
  return new Error(vscode.l10n.t('The model "{0}" failed: {1}', name, e.message));
}

async function ask(
  s: ChatNeeds,
  request: vscode.ChatRequest,
  context: vscode.ChatContext,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<vscode.ChatResult> {
  const model = request.model;
  // The tools turned off (contentDocs.agents.enabled): the model answers without them.
  const toolsOn = config.agentsEnabled();
  const tools: vscode.LanguageModelChatTool[] = vscode.lm.tools
    .filter((t) => toolsOn && t.name.startsWith(CHAT.toolPrefix))
    .map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const messages = [vscode.LanguageModelChatMessage.User(INSTRUCTIONS), ...historyOf(context), vscode.LanguageModelChatMessage.User(request.prompt)];
  const called: string[] = [];
  for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
    let response: vscode.LanguageModelChatResponse;
    try {
      response = await model.sendRequest(messages, { tools, justification: vscode.l10n.t('Content Docs answers your question with the model you chose.') }, token);
    } catch (e) {
      throw e instanceof vscode.LanguageModelError ? modelError(e, model) : e;
    }
    const text: string[] = [];
    const calls: vscode.LanguageModelToolCallPart[] = [];
    for await (const part of response.stream) {
      if (token.isCancellationRequested) return { metadata: { command: 'ask', toolCalls: called, cancelled: true } satisfies ChatAnswerMetadata };
      if (part instanceof vscode.LanguageModelTextPart) {
        text.push(part.value);
        stream.markdown(part.value);
      } else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push(part);
      }
    }
    if (!calls.length) return { metadata: { command: 'ask', toolCalls: called } satisfies ChatAnswerMetadata };

    messages.push(vscode.LanguageModelChatMessage.Assistant([...(text.length ? [new vscode.LanguageModelTextPart(text.join(''))] : []), ...calls]));
    for (const call of calls) {
      called.push(call.name);
      const content = await runTool(s, call, request.toolInvocationToken, token);
      messages.push(vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(call.callId, content)]));
    }
  }
  stream.markdown(`\n\n${vscode.l10n.t('Stopped after {0} rounds of tool calls without a final answer. Ask again in smaller steps.', MAX_TOOL_ROUNDS)}`);
  return { metadata: { command: 'ask', toolCalls: called } satisfies ChatAnswerMetadata };
}

/**
 * Runs one tool call of the model through VS Code (which shows it in the chat and asks the user where the tool
 * wants a confirmation). A tool that fails or is not one of ours answers the model in words it can act on.
 */
async function runTool(
  s: ChatNeeds,
  call: vscode.LanguageModelToolCallPart,
  toolInvocationToken: vscode.ChatRequest['toolInvocationToken'],
  token: vscode.CancellationToken,
): Promise<unknown[]> {
  if (!call.name.startsWith(CHAT.toolPrefix) || !vscode.lm.tools.some((t) => t.name === call.name)) {
    return [new vscode.LanguageModelTextPart(`There is no tool named "${call.name}". The tools are: ${vscode.lm.tools.filter((t) => t.name.startsWith(CHAT.toolPrefix)).map((t) => t.name).join(', ')}.`)];
  }
  try {
    const result = await vscode.lm.invokeTool(call.name, { input: call.input, toolInvocationToken }, token);
    return result.content;
  } catch (e) {
    if (token.isCancellationRequested || isCancellation(e)) throw e;
    s.log.warn(`[chat] ${describeError(`The tool ${call.name} failed`, e)}`);
    return [new vscode.LanguageModelTextPart(`The tool ${call.name} failed: ${reason(e)}`)];
  }
}
