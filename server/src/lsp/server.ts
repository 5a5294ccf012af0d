// Entry point of out/server.js: the language server on the transport given on the command line
// (--stdio, --node-ipc or --socket=PORT). The CLI's `insertlint lsp` uses the same startServer().
import { startServer } from './language-server';

startServer();
