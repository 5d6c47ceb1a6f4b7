// Starts `mjrules lsp` (setting mjrules.server.command) for .mj files: diagnostics, completion, hover, definitions.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("mjrules").get("server.command");
  client = new LanguageClient("mjrules", "mjrules", { command, args },
                              { documentSelector: [{ scheme: "file", language: "mjrules" }] });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
