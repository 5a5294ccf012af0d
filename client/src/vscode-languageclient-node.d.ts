// tsconfig uses classic "node" module resolution, which ignores package "exports"; esbuild follows
// them. This maps the public "/node" subpath to the file it exports, for the type checker only.
declare module 'vscode-languageclient/node' {
  export * from 'vscode-languageclient/lib/node/main';
}
