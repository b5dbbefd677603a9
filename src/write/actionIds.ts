/**
 * The one-step writing actions' ids and titles: all that the activation bundle (the editor menu's context
 * keys, the Code Actions) needs of them. The rest of each action (template, task, placement) is in
 * actions.ts, which only the command bundle loads. No `vscode` import.
 */
export const WRITE_ACTION_IDS = ['rewrite', 'summarize', 'grammar', 'headlines', 'meta'] as const;
export type WriteActionId = (typeof WRITE_ACTION_IDS)[number];

/** Each action's command title (the Code Action shows it too). */
export const WRITE_ACTION_TITLES: Readonly<Record<WriteActionId, string>> = {
  rewrite: 'Rewrite Selection',
  summarize: 'Summarize Selection',
  grammar: 'Fix Grammar',
  headlines: 'Suggest Headlines',
  meta: 'Write Meta Description',
};
