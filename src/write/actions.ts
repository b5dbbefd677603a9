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

/** The words of an action: read when asked, so that they are in the display language once activate() has run. */
type Worded = 'failed' | 'button' | 'title' | 'label';

/** Each action's words, a whole l10n.t literal each (the export reads them): what failed, the button, the title, the label. */
const WORDS: Readonly<Record<WriteActionId, Readonly<Record<Worded, () => string>>>> = {
  rewrite: {
    failed: () => l10n.t("Couldn't rewrite the text"),
    button: () => l10n.t('Rewrite'),
    title: () => l10n.t('Rewrite Selection'),
    label: () => l10n.t('Rewrite'),
  },
  summarize: {
    failed: () => l10n.t("Couldn't summarize the text"),
    button: () => l10n.t('Summarize'),
    title: () => l10n.t('Summarize Selection'),
    label: () => l10n.t('Summary'),
  },
  grammar: {
    failed: () => l10n.t("Couldn't fix the grammar"),
    button: () => l10n.t('Fix Grammar'),
    title: () => l10n.t('Fix Grammar'),
    label: () => l10n.t('Grammar'),
  },
  headlines: {
    failed: () => l10n.t("Couldn't suggest headlines"),
    button: () => l10n.t('Suggest Headlines'),
    title: () => l10n.t('Suggest Headlines'),
    label: () => l10n.t('Headlines'),
  },
  meta: {
    failed: () => l10n.t("Couldn't write a meta description"),
    button: () => l10n.t('Write Meta Description'),
    title: () => l10n.t('Write Meta Description'),
    label: () => l10n.t('Meta description'),
  },
};

/** An action: its facts, and its words read from WORDS each time they are asked for. */
function action(id: WriteActionId, facts: Omit<WriteAction, 'id' | Worded>): WriteAction {
  const words = WORDS[id];
  return {
    id,
    ...facts,
    get failed() {
      return words.failed();
    },
    get button() {
      return words.button();
    },
    get title() {
      return words.title();
    },
    get label() {
      return words.label();
    },
  };
}

export const WRITE_ACTIONS: Readonly<Record<WriteActionId, WriteAction>> = {
  rewrite: action('rewrite', {
    templateId: 14,
    task: 'Rewrite the text below in fresh words, keeping its meaning, its facts and its length.',
    styled: true,
    placement: 'replace',
  }),
  summarize: action('summarize', {
    templateId: 15,
    task: 'Summarize the text below in a few sentences, keeping the key points.',
    styled: true,
    placement: 'replace',
  }),
  grammar: action('grammar', {
    templateId: 45,
    task: 'Correct the spelling, grammar and punctuation of the text below. Keep its language, wording and meaning; change nothing else.',
    styled: false,
    placement: 'replace',
  }),
  headlines: action('headlines', {
    templateId: 18,
    task: 'Suggest five headlines for the text below, as a list.',
    styled: true,
    placement: 'below',
  }),
  meta: action('meta', {
    templateId: 20,
    task: 'Write a meta description of at most 160 characters for a web page with the text below.',
    styled: true,
    placement: 'below',
  }),
};
