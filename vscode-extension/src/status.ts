// The status-bar item: the server's state and, while a class is being learned, that.
// Clicking it shows the Typestar output channel.
import { StatusBarAlignment, window, type Disposable, type StatusBarItem } from 'vscode';

export const SHOW_OUTPUT = 'typestar.showOutput';

/** Where the server is in its life. */
export type ServerState = 'starting' | 'running' | 'stopped' | 'failed';

export class Status implements Disposable {
  private readonly item: StatusBarItem;
  private server: ServerState = 'starting';
  private learning = new Set<string>();

  constructor() {
    this.item = window.createStatusBarItem('typestar.status', StatusBarAlignment.Left, 0);
    this.item.name = 'Typestar';
    this.item.command = SHOW_OUTPUT;
    this.render();
    this.item.show();
  }

  /** The server moved to `state`. */
  setServer(state: ServerState): void {
    this.server = state;
    this.render();
  }

  /** A learning run of `what` started; the returned function ends it. */
  startLearning(what: string): () => void {
    const run = `${what} (${this.learning.size + 1})`;
    this.learning.add(run);
    this.render();
    return () => {
      this.learning.delete(run);
      this.render();
    };
  }

  /** The item's text and tooltip. */
  get text(): string {
    return this.item.text;
  }

  get tooltip(): string {
    return String(this.item.tooltip ?? '');
  }

  dispose(): void {
    this.item.dispose();
  }

  private render(): void {
    const icon = { starting: '$(sync~spin)', running: '$(check)', stopped: '$(circle-slash)', failed: '$(error)' }[this.server];
    const learning = this.learning.size;
    this.item.text = learning > 0 ? `$(beaker~spin) Typestar: learning${learning > 1 ? ` (${learning})` : ''}` : `${icon} Typestar`;
    this.item.tooltip = `Typestar server: ${this.server}${learning > 0 ? `; learning ${[...this.learning].join(', ')}` : ''}. Click for the server log.`;
  }
}
