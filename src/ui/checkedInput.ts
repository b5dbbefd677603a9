import vscode = require('vscode');

/** Looks at a value the user entered: undefined accepts it, a sentence says what is wrong with it. */
export type InputCheck = (value: string, signal: AbortSignal) => Promise<string | undefined>;

export interface CheckedInputOptions extends vscode.InputBoxOptions {
  /** Said under the box while the check runs (e.g. who is being asked). */
  checkingMessage?: string;
}

/**
 * An input box that stays open after Enter while `check` looks at the value: busy, its text locked. A problem the
 * check reports shows under the box, where the user corrects the value and presses Enter again; only an accepted
 * value closes it. Escape closes it at any time: a check under way is aborted through its signal, and whatever it
 * answers later is ignored. `validateInput` still checks each keystroke locally, and a value it refuses is never
 * passed to `check`.
 */
export function showCheckedInput(options: CheckedInputOptions, check: InputCheck): Promise<string | undefined> {
  return new Promise<string | undefined>((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.prompt = options.prompt;
    box.placeholder = options.placeHolder;
    box.password = options.password ?? false;
    box.value = options.value ?? '';
    if (options.valueSelection) box.valueSelection = options.valueSelection;
    box.ignoreFocusOut = options.ignoreFocusOut ?? true;

    let checking: AbortController | undefined;
    let closed = false;
    const subscriptions: vscode.Disposable[] = [];
    const close = (value: string | undefined) => {
      if (closed) return;
      closed = true;
      checking?.abort();
      for (const d of subscriptions) d.dispose();
      box.dispose();
      resolve(value);
    };
    /** What validateInput says of a value (undefined: nothing to say). */
    const validate = async (value: string): Promise<string | vscode.InputBoxValidationMessage | undefined> =>
      (await options.validateInput?.(value)) || undefined;
    /** As showInputBox does: only an error keeps a value from being accepted, not an information or a warning. */
    const refuses = (said: string | vscode.InputBoxValidationMessage | undefined) =>
      typeof said === 'string' || said?.severity === vscode.InputBoxValidationSeverity.Error;

    subscriptions.push(
      box.onDidChangeValue(async (value) => {
        const problem = await validate(value);
        // A later keystroke has its own answer.
        if (!closed && !checking && box.value === value) box.validationMessage = problem;
      }),
      box.onDidAccept(async () => {
        if (checking) return; // Enter again while the value is checked: one check at a time
        const mine = (checking = new AbortController());
        const value = box.value;
        const said = await validate(value);
        if (closed || mine.signal.aborted) return;
        if (refuses(said)) {
          checking = undefined;
          box.validationMessage = said;
          return;
        }
        box.validationMessage = options.checkingMessage
          ? { message: options.checkingMessage, severity: vscode.InputBoxValidationSeverity.Info }
          : undefined;
        box.busy = true;
        box.enabled = false;
        let problem: string | undefined;
        try {
          problem = await check(value, mine.signal);
        } catch (e) {
          problem = e instanceof Error ? e.message : String(e);
        }
        if (closed || mine.signal.aborted) return; // Escape came first: the answer means nothing now
        checking = undefined;
        if (problem === undefined) {
          close(value);
          return;
        }
        box.busy = false;
        box.enabled = true;
        box.validationMessage = problem;
      }),
      box.onDidHide(() => close(undefined)),
    );
    box.show();
  });
}
