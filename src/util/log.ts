import vscode = require('vscode');

/**
 * The extension's one LogOutputChannel. Levels come from "Developer: Set Log Level".
 * As a last line of defence every line is scrubbed of the API key and of bearer tokens.
 * The channel is created with the first line or "Show Log", not at activation: every window activates the
 * extension, and most never write a line (creating a log channel costs VS Code a logger and its file).
 */
export class Logger implements vscode.Disposable {
  #channel: vscode.LogOutputChannel | undefined;
  #disposed = false;
  /** The keys to scrub, per slot (`settings`: the key of "Set API Key…"; else an added account's label). */
  private readonly secrets = new Map<string, string>();

  constructor(private readonly name = 'Content Docs') {}

  private get channel(): vscode.LogOutputChannel {
    if (!this.#channel) {
      this.#channel = vscode.window.createOutputChannel(this.name, { log: true });
      // A line written after dispose (a late answer) must not leave a channel behind.
      if (this.#disposed) this.#channel.dispose();
    }
    return this.#channel;
  }

  /** An account's key (`slot`: which account), so that it can be scrubbed should it ever reach a message. */
  setSecret(secret: string | undefined, slot: string): void {
    if (secret && secret.length >= 4) this.secrets.set(slot, secret);
    else this.secrets.delete(slot);
  }

  private scrub(line: string): string {
    let out = line.replace(/(bearer\s+)[^\s"',]+/gi, '$1[redacted]');
    for (const secret of this.secrets.values()) out = out.split(secret).join('[redacted]');
    return out;
  }

  trace(line: string): void {
    this.channel.trace(this.scrub(line));
  }
  debug(line: string): void {
    this.channel.debug(this.scrub(line));
  }
  info(line: string): void {
    this.channel.info(this.scrub(line));
  }
  warn(line: string): void {
    this.channel.warn(this.scrub(line));
  }
  error(line: string | Error): void {
    const text = line instanceof Error ? (line.stack ?? line.message) : line;
    this.channel.error(this.scrub(text));
  }

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.#disposed = true;
    this.#channel?.dispose();
  }
}
