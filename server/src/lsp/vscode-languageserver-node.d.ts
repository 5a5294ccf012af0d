// tsconfig uses classic "node" module resolution, which ignores package "exports"; esbuild follows
// them. These map the public "/node" subpaths to the files they export, for the type checker only.
declare module 'vscode-languageserver/node' {
  export * from 'vscode-languageserver/lib/node/main';
}
declare module 'vscode-languageserver-protocol/node' {
  export * from 'vscode-languageserver-protocol/lib/node/main';
}
declare module 'vscode-jsonrpc/node' {
  export * from 'vscode-jsonrpc/lib/node/main';
}
