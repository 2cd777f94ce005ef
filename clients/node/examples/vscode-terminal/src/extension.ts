// A VS Code extension: "sbx: Open Sandboxed Terminal" opens a terminal
// whose shell runs in an sbx sandbox of the workspace folder (a
// Pseudoterminal over sbx.run(..., {tty: true})), and network approvals
// come up as VS Code prompts. The logic is in adapter.ts.
import * as os from "node:os";
import * as vscode from "vscode";
import type { ApprovalHandler, Sbx } from "sbx-client" with { "resolution-mode": "import" };
import { SandboxPty, answerFor, approvalPrompt } from "./adapter.js";

let client: Promise<Sbx> | undefined;

// sbx-client is an ES module: loaded with import() from this CommonJS
// extension.
function sbx(): Promise<Sbx> {
  client ??= import("sbx-client").then((m) => m.connect({ clientName: "vscode" }));
  return client;
}

const ask: ApprovalHandler = async (req) => {
  const p = approvalPrompt(req);
  return answerFor(await vscode.window.showWarningMessage(p.message, ...p.choices));
};

async function openTerminal(): Promise<void> {
  let s: Sbx;
  try {
    s = await sbx();
  } catch (e) {
    client = undefined;
    void vscode.window.showErrorMessage(`sbx: ${(e as Error).message}`);
    return;
  }
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();
  const shell = process.env.SHELL || "/bin/sh";
  const write = new vscode.EventEmitter<string>();
  const close = new vscode.EventEmitter<number>();
  const pty = new SandboxPty(
    (size) =>
      s.run([shell, "-l"], {
        cwd: folder,
        workspace: folder,
        tty: true,
        cols: size?.cols,
        rows: size?.rows,
        onApproval: ask,
      }),
    { write: (d) => write.fire(d), close: (c) => close.fire(c) },
    os.constants.signals,
  );
  const terminal: vscode.Pseudoterminal = {
    onDidWrite: write.event,
    onDidClose: close.event,
    open: (dims) => pty.open(dims && { cols: dims.columns, rows: dims.rows }),
    close: () => pty.close(),
    handleInput: (data) => pty.input(data),
    setDimensions: (dims) => pty.resize(dims.columns, dims.rows),
  };
  vscode.window.createTerminal({ name: "sbx", pty: terminal }).show();
}

export function activate(ctx: vscode.ExtensionContext): void {
  ctx.subscriptions.push(
    vscode.commands.registerCommand("sbx.openTerminal", openTerminal),
    // The approvals broker: prompts for every sandbox of the user, the ones
    // an agent harness or a terminal started included.
    vscode.commands.registerCommand("sbx.approveForAll", async () => {
      await (await sbx()).onApproval(ask);
      void vscode.window.showInformationMessage("sbx: approval requests of every sandbox will be asked here");
    }),
  );
}

export function deactivate(): void {
  void client?.then((s) => s.close());
}
