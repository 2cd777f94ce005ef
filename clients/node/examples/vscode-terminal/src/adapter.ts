// The sandboxed terminal's logic, apart from the VS Code API so that it is
// tested without VS Code: a Pseudoterminal's calls (open, input, resize,
// close) become a run handle's, and the handle's output, exit and approval
// requests become the terminal's writes, close and prompts.
import { StringDecoder } from "node:string_decoder";
import type { Answer, ExitResult } from "sbx-client" with { "resolution-mode": "import" };

/** What the adapter needs of sbx-client's RunHandle. */
export interface RunLike {
  stdin: { write(data: string): unknown; end(): unknown };
  stdout: NodeJS.EventEmitter;
  stderr: NodeJS.EventEmitter;
  exit: Promise<ExitResult>;
  resize(cols: number, rows: number): void;
  signal(sig: NodeJS.Signals, target?: "command" | "foreground" | "session"): void;
}

/** The terminal side: VS Code's EventEmitters in the extension. */
export interface TerminalSink {
  write(data: string): void;
  close(code: number): void;
}

export interface Size {
  cols: number;
  rows: number;
}

/** A terminal shows "\r\n"; the daemon's summary lines have no ending. */
export function exitText(st: ExitResult): string {
  const lines = [...st.summaryLines];
  if (st.signal) lines.push(`[sandboxed command ended by ${st.signal}]`);
  else lines.push(`[sandboxed command exited with code ${st.code}]`);
  return lines.map((l) => `\r\n${l}`).join("") + "\r\n";
}

/** The exit status a terminal reports: a signal is 128 + its number. */
export function exitCode(st: ExitResult, signals: Record<string, number>): number {
  if (st.code !== null) return st.code;
  return 128 + (st.signal ? (signals[st.signal] ?? 0) : 0);
}

export class SandboxPty {
  private handle?: RunLike;
  private closed = false;
  private out = new StringDecoder("utf8");

  /**
   * start runs the command once the terminal's size is known (open);
   * signals maps names to numbers (os.constants.signals).
   */
  constructor(
    private readonly start: (size?: Size) => RunLike,
    private readonly sink: TerminalSink,
    private readonly signals: Record<string, number>,
  ) {}

  open(size?: Size): void {
    const h = this.start(size);
    this.handle = h;
    // Bytes of one character may come in two frames: decode across them.
    h.stdout.on("data", (b: Buffer) => this.write(this.out.write(b)));
    h.exit.then(
      (st) => {
        this.write(this.out.end() + exitText(st));
        this.finish(exitCode(st, this.signals));
      },
      (e: Error) => {
        this.write(`\r\nsbx: ${e.message.replace(/\n/g, "\r\n")}\r\n`);
        this.finish(1);
      },
    );
  }

  input(data: string): void {
    if (!this.closed) this.handle?.stdin.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.closed) this.handle?.resize(cols, rows);
  }

  /** The user closed the terminal: hang up, as closing a terminal does. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.handle?.signal("SIGHUP", "session");
  }

  private write(s: string): void {
    if (s && !this.closed) this.sink.write(s);
  }

  private finish(code: number): void {
    if (this.closed) return;
    this.closed = true;
    this.sink.close(code);
  }
}

/** What the extension shows for an approval request. */
export interface ApprovalPrompt {
  message: string;
  choices: string[];
}

const CHOICES: [string, Answer][] = [
  ["Allow once", "once"],
  ["Allow for this session", "session"],
  ["Always allow", "always"],
  ["Deny", "deny"],
];

export function approvalPrompt(req: { host: string; port: number; protocol: string; refused: string }): ApprovalPrompt {
  let message = `A sandboxed command wants to reach ${req.host}:${req.port} (${req.protocol}). Allow it?`;
  if (req.refused) message += ` Note: ${req.refused}`;
  return { message, choices: CHOICES.map(([label]) => label) };
}

/** The answer for the button chosen; a dismissed prompt denies. */
export function answerFor(choice: string | undefined): Answer {
  return CHOICES.find(([label]) => label === choice)?.[1] ?? "deny";
}
