import { l10n } from '../util/l10n';
import type { WriteActionId } from './actionIds';

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
  /** What failed, a whole sentence ("Couldn't rewrite the text"): a message goes on with ": " and why. */
  readonly failed: string;
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
    get failed() {
      return l10n.t("Couldn't rewrite the text");
    },
    get button() {
      return l10n.t('Rewrite');
    },
    get title() {
      return l10n.t('Rewrite Selection');
    },
    get label() {
      return l10n.t('Rewrite');
    },
    templateId: 14,
    task: 'Rewrite the text below in fresh words, keeping its meaning, its facts and its length.',
    styled: true,
    placement: 'replace',
  },
  summarize: {
    id: 'summarize',
    get failed() {
      return l10n.t("Couldn't summarize the text");
    },
    get button() {
      return l10n.t('Summarize');
    },
    get title() {
      return l10n.t('Summarize Selection');
    },
    get label() {
      return l10n.t('Summary');
    },
    templateId: 15,
    task: 'Summarize the text below in a few sentences, keeping the key points.',
    styled: true,
    placement: 'replace',
  },
  grammar: {
    id: 'grammar',
    get failed() {
      return l10n.t("Couldn't fix the grammar");
    },
    get button() {
      return l10n.t('Fix Grammar');
    },
    get title() {
      return l10n.t('Fix Grammar');
    },
    get label() {
      return l10n.t('Grammar');
    },
    templateId: 45,
    task: 'Correct the spelling, grammar and punctuation of the text below. Keep its language, wording and meaning; change nothing else.',
    styled: false,
    placement: 'replace',
  },
  headlines: {
    id: 'headlines',
    get failed() {
      return l10n.t("Couldn't suggest headlines");
    },
    get button() {
      return l10n.t('Suggest Headlines');
    },
    get title() {
      return l10n.t('Suggest Headlines');
    },
    get label() {
      return l10n.t('Headlines');
    },
    templateId: 18,
    task: 'Suggest five headlines for the text below, as a list.',
    styled: true,
    placement: 'below',
  },
  meta: {
    id: 'meta',
    get failed() {
      return l10n.t("Couldn't write a meta description");
    },
    get button() {
      return l10n.t('Write Meta Description');
    },
    get title() {
      return l10n.t('Write Meta Description');
    },
    get label() {
      return l10n.t('Meta description');
    },
    templateId: 20,
    task: 'Write a meta description of at most 160 characters for a web page with the text below.',
    styled: true,
    placement: 'below',
  },
};
