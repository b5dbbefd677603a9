import vscode = require('vscode');

/**
 * What a step of a multi-step input answers when the user presses its Back button. An object, not a symbol: the
 * commands and the prompters that answer them may come from different bundles.
 */
export interface Back {
  readonly back: true;
}

export function isBack(answer: unknown): answer is Back {
  return typeof answer === 'object' && answer !== null && (answer as { back?: unknown }).back === true;
}

const BACK: Back = { back: true };

/** Where a question stands in a multi-step input (VS Code shows "step/totalSteps" beside the title). */
export interface Step {
  step: number;
  totalSteps: number;
}

/** A button of a step's input box beside Back (e.g. "Write in an Editor…"): pressing it closes the box with what was typed. */
export interface StepButton {
  readonly id: string;
  /** A codicon name. */
  readonly icon: string;
  readonly tooltip: string;
}

/** What a step's input box answers when one of its own buttons is pressed: the button, and the text in the box then. */
export interface Pressed {
  readonly pressed: string;
  readonly value: string;
}

export function isPressed(answer: unknown): answer is Pressed {
  return typeof answer === 'object' && answer !== null && typeof (answer as { pressed?: unknown }).pressed === 'string';
}

export interface StepInputOptions extends vscode.InputBoxOptions, Step {
  /** The line under the box for what is typed so far (e.g. a character count); replaces `prompt` while typing. */
  promptFor?: (value: string) => string;
  /** Buttons of the box's own, after Back. */
  buttons?: readonly StepButton[];
  /** Told what the box held when it was closed without an answer (Escape, focus elsewhere), so that it can be kept. */
  onCancel?: (value: string) => void;
  /** Told what the box held when its Back button was pressed, so that coming forward again shows it. */
  onBack?: (value: string) => void;
}

export interface StepPickOptions<T extends vscode.QuickPickItem> extends vscode.QuickPickOptions, Step {
  /** The item Enter takes at first (the current choice), wherever it is in the list. */
  active?: T;
}

/** A toggle button in an input box's title, on or off, like the "Match Case" of VS Code's Find. */
export interface InputToggle {
  readonly id: string;
  /** A codicon name. */
  readonly icon: string;
  readonly tooltip: string;
  readonly checked: boolean;
}

export interface ToggleInputOptions {
  title: string;
  value?: string;
  placeHolder?: string;
  /** The line under the box for the toggles as they stand (said again on each toggle). */
  prompt: (checked: Readonly<Record<string, boolean>>) => string;
  toggles: readonly InputToggle[];
  /** Looked at on Enter: a sentence keeps the box open and shows under it. */
  validateInput?: (value: string) => string | undefined;
}

export interface ToggledInput {
  value: string;
  /** Each toggle's state when Enter was pressed, by id. */
  checked: Record<string, boolean>;
}

/** `toggle` on a button is newer than the API this extension is built against; older hosts ignore it. */
type ToggleButton = vscode.QuickInputButton & { toggle?: { checked: boolean }; readonly id: string };

/** Opens a quick input and settles once: a value, Back, or undefined when it is hidden (Escape, focus elsewhere). */
function settleOnce<Q extends vscode.QuickInput, R>(input: Q, run: (done: (r: R | undefined) => void) => vscode.Disposable[]): Promise<R | undefined> {
  return new Promise<R | undefined>((resolve) => {
    let closed = false;
    const subscriptions: vscode.Disposable[] = [];
    const done = (r: R | undefined) => {
      if (closed) return;
      closed = true;
      for (const d of subscriptions) d.dispose();
      input.dispose();
      resolve(r);
    };
    subscriptions.push(...run(done), input.onDidHide(() => done(undefined)));
    input.show();
  });
}

/**
 * An input box of a multi-step input (VS Code's multi-step sample): "step/totalSteps" beside the title, a Back
 * button from the second step on, `validateInput` said under the box while typing and refusing Enter.
 */
export function showStepInput(options: StepInputOptions): Promise<string | Back | Pressed | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.step = options.step;
  box.totalSteps = options.totalSteps;
  box.value = options.value ?? '';
  if (options.valueSelection) box.valueSelection = options.valueSelection;
  box.placeholder = options.placeHolder;
  box.password = options.password ?? false;
  box.ignoreFocusOut = options.ignoreFocusOut ?? true;
  const own = (options.buttons ?? []).map((b) => ({ id: b.id, iconPath: new vscode.ThemeIcon(b.icon), tooltip: b.tooltip }));
  box.buttons = [...(options.step > 1 ? [vscode.QuickInputButtons.Back] : []), ...own];
  const promptFor = (value: string) => options.promptFor?.(value) ?? options.prompt;
  box.prompt = promptFor(box.value);
  const validate = async (value: string): Promise<string | vscode.InputBoxValidationMessage | undefined> => (await options.validateInput?.(value)) || undefined;
  let answered = false;
  return settleOnce<vscode.InputBox, string | Back | Pressed>(box, (done) => [
    box.onDidTriggerButton((b) => {
      answered = true;
      if (b === vscode.QuickInputButtons.Back) {
        options.onBack?.(box.value);
        return done(BACK);
      }
      const button = own.find((o) => o === b);
      if (button) done({ pressed: button.id, value: box.value });
    }),
    // Registered before settleOnce's own: the box still holds its value here.
    box.onDidHide(() => {
      if (!answered) options.onCancel?.(box.value);
    }),
    box.onDidChangeValue(async (value) => {
      box.prompt = promptFor(value);
      const problem = await validate(value);
      if (box.value === value) box.validationMessage = problem;
    }),
    box.onDidAccept(async () => {
      const value = box.value;
      const problem = await validate(value);
      if (typeof problem === 'string' || problem?.severity === vscode.InputBoxValidationSeverity.Error) {
        box.validationMessage = problem;
        return;
      }
      answered = true;
      done(value);
    }),
  ]);
}

/** A Quick Pick of a multi-step input: "step/totalSteps", a Back button from the second step on, the current choice active. */
export function showStepPick<T extends vscode.QuickPickItem>(items: readonly T[], options: StepPickOptions<T>): Promise<T | Back | undefined> {
  const qp = vscode.window.createQuickPick<T>();
  qp.title = options.title;
  qp.step = options.step;
  qp.totalSteps = options.totalSteps;
  qp.placeholder = options.placeHolder;
  qp.matchOnDescription = options.matchOnDescription ?? false;
  qp.matchOnDetail = options.matchOnDetail ?? false;
  qp.ignoreFocusOut = options.ignoreFocusOut ?? true;
  qp.buttons = options.step > 1 ? [vscode.QuickInputButtons.Back] : [];
  qp.items = items;
  if (options.active) qp.activeItems = [options.active];
  return settleOnce<vscode.QuickPick<T>, T | Back>(qp, (done) => [
    qp.onDidTriggerButton((b) => {
      if (b === vscode.QuickInputButtons.Back) done(BACK);
    }),
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0] ?? qp.activeItems[0];
      if (item) done(item);
    }),
  ]);
}

/**
 * An input box with toggle buttons in its title (VS Code's Find has "Match Case" so): the words first, the toggles
 * changing how they are used. A toggle's state shows on the button where the host draws toggles, and always in the
 * line under the box.
 */
export function showToggleInput(options: ToggleInputOptions): Promise<ToggledInput | undefined> {
  const box = vscode.window.createInputBox();
  const checked: Record<string, boolean> = Object.fromEntries(options.toggles.map((t) => [t.id, t.checked]));
  const buttons = (): ToggleButton[] =>
    options.toggles.map((t) => ({ id: t.id, iconPath: new vscode.ThemeIcon(t.icon), tooltip: t.tooltip, toggle: { checked: checked[t.id] } }));
  box.title = options.title;
  box.value = options.value ?? '';
  box.valueSelection = [0, box.value.length];
  box.placeholder = options.placeHolder;
  box.ignoreFocusOut = true;
  box.buttons = buttons();
  box.prompt = options.prompt(checked);
  return settleOnce<vscode.InputBox, ToggledInput>(box, (done) => [
    box.onDidTriggerButton((b) => {
      const button = b as ToggleButton;
      if (!(button.id in checked)) return;
      // A host that draws toggles has set the new state on the button; an older one only says it was pressed.
      checked[button.id] = button.toggle?.checked !== undefined && button.toggle.checked !== checked[button.id] ? button.toggle.checked : !checked[button.id];
      box.buttons = buttons();
      box.prompt = options.prompt(checked);
    }),
    box.onDidChangeValue(() => {
      box.validationMessage = undefined;
    }),
    box.onDidAccept(() => {
      const problem = options.validateInput?.(box.value);
      if (problem) {
        box.validationMessage = problem;
        return;
      }
      done({ value: box.value, checked: { ...checked } });
    }),
  ]);
}
