// Loading the grammars (code/frontend.ts): each grammar's module is compiled synchronously, so the load hands
// the event loop a turn between grammars itself; the language server loads all of them at start-up and must
// answer messages meanwhile. A file of its own: its bundle loads the grammars afresh (the other code tests
// have them loaded already).
import * as assert from 'node:assert/strict';
import { loadCodeFrontEnd } from '../../server/src/code/frontend';
import { GRAMMARS } from '../../server/src/code/wasm';

describe('loading the tree-sitter grammars', () => {
  it('turns the event loop between grammars while it loads them all', async function () {
    this.timeout(60_000);
    // The runtime first: its own load waits for I/O, which turns the loop whatever the grammars do.
    await loadCodeFrontEnd(['java']);
    let turns = 0;
    let done = false;
    const tick = () => {
      turns++;
      if (!done) setImmediate(tick);
    };
    setImmediate(tick);
    const frontEnd = await loadCodeFrontEnd();
    done = true;
    const rest = Object.keys(GRAMMARS).length - 1;
    assert.ok(turns >= rest, `${turns} turns of the event loop while ${rest} grammars loaded`);
    assert.ok(frontEnd.languages.includes('python'));
  });
});
