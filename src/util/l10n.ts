/**
 * Translation for the vscode-free code (src/api's error texts, the usage figures, the models' sentences): `l10n.t`
 * has the signature of `vscode.l10n.t` and, once activate() has handed it VS Code's (useVscodeL10n), IS it: the
 * sentence is looked up in the display language's bundle (l10n/bundle.l10n.<lang>.json) that VS Code loaded for the
 * extension. Outside VS Code (plain Node: the unit tests, a command-line tool) it fills the English sentence's
 * placeholders itself.
 *
 * Why not message keys the caller words: the API layer's texts are whole sentences built where the facts are
 * (status, seconds, address, setting), in many places; a key table beside each, worded again in the vscode code,
 * would double every sentence and drift. Why not @vscode/l10n: each lazily loaded bundle (dist/api.js, core.js, …)
 * would carry its own copy to configure with the bundle's contents, in Node and in the web worker, though VS Code has
 * already loaded them. The lazy bundles are separate modules that share the extension host's global object (they run
 * in its context: src/activation/codeCache.ts), so VS Code's l10n is handed over there, under a registered symbol;
 * no bundle but the activation one requires 'vscode' for it (test/unit/undiciPaths.test.ts: dist/api.js requires no
 * package). scripts/l10n.mjs exports these calls with the vscode ones (it reads `l10n.t` of this module as
 * @vscode/l10n's).
 */
type Args = Array<string | number | boolean> | [Record<string, unknown>];

/** What activate() hands over: vscode.l10n.t and vscode.env.language. */
export interface Translator {
  t(message: string, ...args: Args): string;
  readonly language: string;
}

const KEY = Symbol.for('content-docs.l10n');

/** Called once by activate(): every bundle's l10n.t is vscode.l10n.t from then on (undefined: English again, for tests). */
export function useVscodeL10n(translator: Translator | undefined): void {
  (globalThis as Record<symbol, unknown>)[KEY] = translator;
}

function translator(): Translator | undefined {
  return (globalThis as Record<symbol, unknown>)[KEY] as Translator | undefined;
}

/** `{0}` or `{name}` replaced by the argument (as vscode.l10n.t does); an unknown placeholder is left as it is. */
export function format(message: string, args: Args): string {
  const first = args[0];
  const named = args.length === 1 && typeof first === 'object' ? first : undefined;
  return message.replace(/\{([^{}\s]+)\}/g, (whole, name: string) => {
    const value: unknown = named ? named[name] : (args as unknown[])[Number(name)];
    if (value === undefined) return whole;
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  });
}

export const l10n = {
  t(message: string, ...args: Args): string {
    const v = translator();
    return v ? v.t(message, ...args) : format(message, args);
  },
  /** VS Code's display language ("de", "pt-br"), "en" outside VS Code: for Intl's formats and the English-only touches. */
  get language(): string {
    return translator()?.language || 'en';
  },
};

/** The display language is English (its texts may be adjusted by English rules, such as lower-casing a first word). */
export function isEnglish(): boolean {
  return /^en\b/i.test(l10n.language);
}
