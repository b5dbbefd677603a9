/**
 * The one-step writing actions' ids: all that the activation bundle (the editor menu's context keys, the Code
 * Actions, which word their titles in menu.ts) needs of them. The rest of each action (template, task, placement) is in
 * actions.ts, which only the command bundle loads. No `vscode` import.
 */
export const WRITE_ACTION_IDS = ['rewrite', 'summarize', 'grammar', 'headlines', 'meta'] as const;
export type WriteActionId = (typeof WRITE_ACTION_IDS)[number];
