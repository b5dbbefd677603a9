import { WRITE_ACTION_TITLES, type WriteActionId } from './actionIds';

export { WRITE_ACTION_IDS, type WriteActionId } from './actionIds';

/**
 * The one-step writing actions on a selection: which template labels the document, what the model is
 * asked to do, and where the answer goes. No `vscode` import. Only the command bundle loads this table: the
 * activation bundle (menus, Code Actions) reads the ids and titles from actionIds.ts.
 */

export interface WriteAction {
  readonly id: WriteActionId;
  /** The command's title. */
  readonly title: string;
  /** "Couldn't {verb}: …" */
  readonly verb: string;
  /** The confirmation's button. */
  readonly button: string;
  /** First part of the document's name: `Rewrite · post.md:12`. */
  readonly label: string;
  /** The template that labels the document (src/api/templates.ts). */
  readonly templateId: number;
  /** The instruction, in our own words, naming the task. */
  readonly task: string;
  /** Whether the language and tone apply (a grammar fix keeps the text's own language and tone). */
  readonly styled: boolean;
  /** Replace the selection, or insert the answer below it (headlines and a meta description go with the text). */
  readonly placement: 'replace' | 'below';
}

export const WRITE_ACTIONS: Readonly<Record<WriteActionId, WriteAction>> = {
  rewrite: {
    id: 'rewrite',
    verb: 'rewrite the text',
    button: 'Rewrite',
    title: WRITE_ACTION_TITLES.rewrite,
    label: 'Rewrite',
    templateId: 14,
    task: 'Rewrite the text below in fresh words, keeping its meaning, its facts and its length.',
    styled: true,
    placement: 'replace',
  },
  summarize: {
    id: 'summarize',
    verb: 'summarize the text',
    button: 'Summarize',
    title: WRITE_ACTION_TITLES.summarize,
    label: 'Summary',
    templateId: 15,
    task: 'Summarize the text below in a few sentences, keeping the key points.',
    styled: true,
    placement: 'replace',
  },
  grammar: {
    id: 'grammar',
    verb: 'fix the grammar',
    button: 'Fix Grammar',
    title: WRITE_ACTION_TITLES.grammar,
    label: 'Grammar',
    templateId: 45,
    task: 'Correct the spelling, grammar and punctuation of the text below. Keep its language, wording and meaning; change nothing else.',
    styled: false,
    placement: 'replace',
  },
  headlines: {
    id: 'headlines',
    verb: 'suggest headlines',
    button: 'Suggest Headlines',
    title: WRITE_ACTION_TITLES.headlines,
    label: 'Headlines',
    templateId: 18,
    task: 'Suggest five headlines for the text below, as a list.',
    styled: true,
    placement: 'below',
  },
  meta: {
    id: 'meta',
    verb: 'write a meta description',
    button: 'Write Meta Description',
    title: WRITE_ACTION_TITLES.meta,
    label: 'Meta description',
    templateId: 20,
    task: 'Write a meta description of at most 160 characters for a web page with the text below.',
    styled: true,
    placement: 'below',
  },
};
