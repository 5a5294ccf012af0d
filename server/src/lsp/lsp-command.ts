// `insertlint lsp --stdio`: the language server for editors other than VS Code.
import { UsageError, type CliIo } from '../cli/args';

export const LSP_USAGE = 'Usage: insertlint lsp --stdio | --node-ipc | --socket=PORT';

export async function runLspCommand(argv: string[], io: CliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${LSP_USAGE}\n`);
    return 0;
  }
  const transport = argv.filter((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket='));
  // vscode-languageserver itself reads --clientProcessId PID (the editor's process, to exit with it).
  const unknown = argv.filter((a, i) => !transport.includes(a) && !a.startsWith('--clientProcessId') && argv[i - 1] !== '--clientProcessId');
  if (transport.length !== 1 || unknown.length > 0) throw new UsageError(`choose one transport. ${LSP_USAGE}`);
  // Loaded lazily so that the other commands do not pay for the LSP libraries.
  const { startServer } = await import('./language-server');
  startServer();
  // The connection ends the process on the client's `exit` notification.
  return new Promise<number>(() => undefined);
}
