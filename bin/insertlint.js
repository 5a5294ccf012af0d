#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const cli = path.join(__dirname, '..', 'out', 'cli.js');
if (!fs.existsSync(cli)) {
  process.stderr.write('insertlint: the CLI is not built yet; run `npm install` (or `npm run build`) in ' + path.dirname(__dirname) + '\n');
  process.exit(2);
}
require(cli).runFromProcess();
