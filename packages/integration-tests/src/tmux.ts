import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A program in a terminal of its own: a detached tmux session on a private server (`-L`), so
 * a test types into it (send-keys) and reads its screen (capture-pane) as a person would, and
 * never touches anyone's tmux. `close` ends that server and whatever runs in it.
 */
export class TmuxSession {
  readonly #socket: string;

  private constructor(socket: string) {
    this.#socket = socket;
  }

  /** Starts `command` (argv, with `env` set) in a `width`x`height` terminal in `cwd`. */
  static start(command: readonly string[], options: { cwd: string; env: Readonly<Record<string, string>>; width?: number; height?: number }): TmuxSession {
    const session = new TmuxSession(`weir-test-${process.pid}-${Date.now()}`);
    const env = Object.entries(options.env).map(([k, v]) => `${k}=${v}`);
    session.#tmux(['new-session', '-d', '-s', 'main', '-x', String(options.width ?? 160), '-y', String(options.height ?? 50), '-c', options.cwd, 'env', ...env, ...command]);
    // Keeps the pane, and its last screen, when the program exits.
    session.#tmux(['set-option', '-t', 'main', 'remain-on-exit', 'on']);
    return session;
  }

  /** Types `text` and Enter. */
  typeLine(text: string): void {
    // tmux takes an argument that ends in ';' as the end of its command: the ';' goes as a key code.
    const body = text.replace(/;+$/, '');
    if (body !== '') this.#tmux(['send-keys', '-t', 'main', '-l', body]);
    for (let i = body.length; i < text.length; i++) this.#tmux(['send-keys', '-t', 'main', '-H', '3b']);
    this.#tmux(['send-keys', '-t', 'main', 'Enter']);
  }

  /** Presses keys by tmux's names: `C-c`, `Up`. */
  press(...keys: string[]): void {
    this.#tmux(['send-keys', '-t', 'main', ...keys]);
  }

  /** The screen and its scrollback, as text. */
  capture(): string {
    return this.#tmux(['capture-pane', '-p', '-J', '-S', '-2000', '-t', 'main']);
  }

  /** Polls the screen every 100 ms until `read` finds what it looks for; fails after `timeoutMs` with `what` and the screen. */
  async waitFor<T>(what: string, read: (screen: string) => T | undefined | false, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.capture();
      const found = read(screen);
      if (found !== undefined && found !== false) return found;
      if (Date.now() > deadline) throw new Error(`${what}: not on the screen after ${timeoutMs} ms; the screen:\n${screen}`);
      await sleep(100);
    }
  }

  /** Ends the server and removes its socket file, which kill-server leaves behind. */
  close(): void {
    try {
      const socketPath = this.#tmux(['display-message', '-p', '#{socket_path}']).trim();
      this.#tmux(['kill-server']);
      rmSync(socketPath, { force: true });
    } catch {
      // Already gone.
    }
  }

  #tmux(args: readonly string[]): string {
    return execFileSync('tmux', ['-L', this.#socket, ...args], { encoding: 'utf8' });
  }
}
