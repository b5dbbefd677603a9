import vscode = require('vscode');
import type { CheckedInputOptions, InputCheck } from './checkedInput';
import type { Back, Pressed, StepInputOptions, StepPickOptions, ToggledInput, ToggleInputOptions } from './quickInputs';

export type { CheckedInputOptions, InputCheck } from './checkedInput';
export type { Back, Pressed, StepButton, StepInputOptions, StepPickOptions, ToggledInput, ToggleInputOptions } from './quickInputs';

/**
 * The questions the extension asks. One object so that tests can answer them (the modal
 * confirmation cannot be clicked from inside the extension host); the product uses VS Code's own UI.
 */
export interface Prompter {
  /** A modal warning with one confirming button; true only if that button was chosen. */
  confirm(message: string, detail: string, confirmLabel: string): Promise<boolean>;
  /**
   * A modal question that is no warning (an information dialog): the label of the button chosen, or undefined when
   * it was cancelled (Escape, Cancel).
   */
  ask(message: string, detail: string, buttons: readonly string[]): Promise<string | undefined>;
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  /**
   * An input box that stays open after Enter while `check` looks at the value, shows the problem it reports under
   * the box for the user to correct, and closes only on a value it accepts (that value) or on Escape (undefined;
   * a check under way is aborted through its signal and its answer ignored).
   */
  inputChecked(options: CheckedInputOptions, check: InputCheck): Promise<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  /**
   * An input box of a multi-step input: the value, Back (its Back button, from the second step on), one of its own
   * buttons with what was typed (Pressed), or undefined (Escape).
   */
  inputStep(options: StepInputOptions): Promise<string | Back | Pressed | undefined>;
  /** A Quick Pick of a multi-step input: the item, Back, or undefined (Escape). */
  pickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: StepPickOptions<T>): Promise<T | Back | undefined>;
  /** An input box with toggle buttons in its title (like Find's "Match Case"): the value and the toggles at Enter. */
  inputToggled(options: ToggleInputOptions): Promise<ToggledInput | undefined>;
}

/** The boxes of the questions that are code of ours (in the commands' bundle: only commands ask them). */
export interface PromptBoxes {
  showCheckedInput(options: CheckedInputOptions, check: InputCheck): Promise<string | undefined>;
  showStepInput(options: StepInputOptions): Promise<string | Back | Pressed | undefined>;
  showStepPick<T extends vscode.QuickPickItem>(items: readonly T[], options: StepPickOptions<T>): Promise<T | Back | undefined>;
  showToggleInput(options: ToggleInputOptions): Promise<ToggledInput | undefined>;
}

export class VsCodePrompter implements Prompter {
  /** `boxes`: loads the commands' bundle, where the boxes' code is (activation need not load it). */
  constructor(private readonly boxes: () => PromptBoxes) {}

  async confirm(message: string, detail: string, confirmLabel: string): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(message, { modal: true, detail }, confirmLabel);
    return choice === confirmLabel;
  }
  async ask(message: string, detail: string, buttons: readonly string[]): Promise<string | undefined> {
    return vscode.window.showInformationMessage(message, { modal: true, detail }, ...buttons);
  }
  input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return Promise.resolve(vscode.window.showInputBox({ ignoreFocusOut: true, ...options }));
  }
  inputChecked(options: CheckedInputOptions, check: InputCheck): Promise<string | undefined> {
    // The box's code is in the commands' bundle: only commands ask this question, and activation need not load it.
    return this.boxes().showCheckedInput(options, check);
  }
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    return Promise.resolve(vscode.window.showQuickPick(items, { ignoreFocusOut: true, ...options }));
  }
  // These boxes' code is in the commands' bundle too.
  inputStep(options: StepInputOptions): Promise<string | Back | Pressed | undefined> {
    return this.boxes().showStepInput(options);
  }
  pickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: StepPickOptions<T>): Promise<T | Back | undefined> {
    return this.boxes().showStepPick(items, options);
  }
  inputToggled(options: ToggleInputOptions): Promise<ToggledInput | undefined> {
    return this.boxes().showToggleInput(options);
  }
}

/** Forwards to a replaceable implementation (tests swap `current`). */
export class SwitchablePrompter implements Prompter {
  /** VS Code's own questions (what `current` is unless a test swapped it). */
  readonly vscode: Prompter;
  current: Prompter;
  constructor(boxes: () => PromptBoxes) {
    this.vscode = new VsCodePrompter(boxes);
    this.current = this.vscode;
  }
  confirm(message: string, detail: string, confirmLabel: string): Promise<boolean> {
    return this.current.confirm(message, detail, confirmLabel);
  }
  ask(message: string, detail: string, buttons: readonly string[]): Promise<string | undefined> {
    return this.current.ask(message, detail, buttons);
  }
  input(options: vscode.InputBoxOptions): Promise<string | undefined> {
    return this.current.input(options);
  }
  inputChecked(options: CheckedInputOptions, check: InputCheck): Promise<string | undefined> {
    return this.current.inputChecked(options, check);
  }
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined> {
    return this.current.pick(items, options);
  }
  inputStep(options: StepInputOptions): Promise<string | Back | Pressed | undefined> {
    return this.current.inputStep(options);
  }
  pickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: StepPickOptions<T>): Promise<T | Back | undefined> {
    return this.current.pickStep(items, options);
  }
  inputToggled(options: ToggleInputOptions): Promise<ToggledInput | undefined> {
    return this.current.inputToggled(options);
  }
}
