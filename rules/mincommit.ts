// MINCOMMIT above 1: commits wait to share a log write, which a single bulk inserter never benefits from.
import type { Rule } from '../server/src/engine/types';
import { statementsOf } from '../server/src/engine/statements';
import { dbCfgParameters } from './support/targets';

const MincommitRule: Rule = {
  meta: {
    id: 'mincommit',
    description: 'MINCOMMIT (DB CFG) above 1 where the workload inserts',
    defaultSeverity: 'information',
    reads: { statements: ['updateDbCfg'] },
    dialects: ['luw'],
    evidence: ['Db2 INSERT tips, section 7 (Committing)'],
    fixable: true,
    messages: {
      grouped:
        'MINCOMMIT {value} makes each commit wait until {value} commits can share one log write (or a timeout passes). A bulk insert job commits alone, so each of its commits can only lose time; Db2 INSERT tips recommends keeping MINCOMMIT at 1 when bulk inserts matter (no measurement given). Db2 10.5 and later ignore this parameter.',
    },
  },
  check({ file, schema, report }) {
    if (!schema.hasInsertWorkload()) return;
    for (const stmt of statementsOf(file, 'updateDbCfg')) {
      for (const p of dbCfgParameters(stmt, 'MINCOMMIT')) {
        if (p.numericValue === undefined || p.numericValue <= 1) continue;
        report({ messageId: 'grouped', data: { value: p.value }, stmt, span: p.span, fix: { title: 'Set MINCOMMIT 1', edits: [{ span: p.span, newText: 'MINCOMMIT 1' }] } });
      }
    }
  },
};

export default MincommitRule;
