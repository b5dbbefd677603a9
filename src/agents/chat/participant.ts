import vscode = require('vscode');
import { CHAT, CTX } from '../../constants';
import type { ChatNeeds, answerChat } from './handler';

/**
 * The @content chat participant (contributes.chatParticipants), registered at activation with nothing loaded: its
 * answers (src/agents/chat/handler.ts) are in dist/commands.js, which loads with the services on the first request, as on
 * a first command. A VS Code without the chat API (or with AI features turned off) simply never calls it.
 */
export function registerChatParticipant(
  extensionUri: vscode.Uri,
  services: () => ChatNeeds,
  /** The answers' code (in the commands' bundle, loaded on the first request). */
  answers: () => typeof answerChat,
): vscode.Disposable[] {
  if (typeof vscode.chat?.createChatParticipant !== 'function') return [];
  const participant = vscode.chat.createChatParticipant(CHAT.participant, (request, context, stream, token) => {
    // The Getting Started step "Ask @content" is done once @content is asked anything.
    void vscode.commands.executeCommand('setContext', CTX.askedContent, true).then(undefined, () => undefined);
    return answers()(services(), request, context, stream, token);
  });
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'content-docs.svg');
  return [participant];
}
